import { formatNumber } from '../../shared/domain/invoices/numbering';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function workspace(entity: Record<string, unknown> = {}): Promise<{ client: Client; entity: any; customerId: string }> {
  const client = await api.client();
  const created = await withEntity(client, entity);
  const customer = (await client.post('/v1/customers', { name: 'N', currency: 'EUR' })).body;
  return { client, entity: created, customerId: customer.id };
}

const drafts = (client: Client, customerId: string, count: number, body: Record<string, unknown> = {}) =>
  Promise.all(Array.from({ length: count }, async () => (await client.post('/v1/invoices', { customer_id: customerId, line_items: [], ...body })).body.id as string));

describe('invoice numbering', () => {
  it('gives 25 parallel validations 25 distinct consecutive numbers, with no gap, and moves the counter past them', async () => {
    const { client, entity, customerId } = await workspace({ invoice_number_pattern: 'F-{number}', next_invoice_number: 100 });
    const ids = await drafts(client, customerId, 25);
    const replies = await Promise.all(ids.map((id) => client.post(`/v1/invoices/${id}/validate`)));
    expect(replies.map((r) => r.status)).toEqual(ids.map(() => 200));
    const numbers = replies.map((r) => Number(String(r.body.number).replace('F-', ''))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 25 }, (_, i) => 100 + i));
    expect((await client.get(`/v1/invoicing-entities/${entity.id}`)).body.next_invoice_number).toBe(125);
  });

  it('keeps one sequence per document type and leaves drafts and closed drafts unnumbered', async () => {
    const { client, entity, customerId } = await workspace();
    const [invoiceDraft, discarded] = await drafts(client, customerId, 2);
    const [documentDraft] = await drafts(client, customerId, 1, { type: 'document' });
    await client.delete(`/v1/invoices/${discarded}`);
    expect((await client.post(`/v1/invoices/${documentDraft}/validate`)).body.number).toBe('DOC-1');
    expect((await client.post(`/v1/invoices/${invoiceDraft}/validate`)).body.number).toBe('INV-1');
    const toPay = (await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [] })).body;
    expect(toPay.number).toBe('INV-2');
    const after = (await client.get(`/v1/invoicing-entities/${entity.id}`)).body;
    expect([after.next_invoice_number, after.next_document_number, after.next_credit_note_number]).toEqual([3, 2, 1]);
  });

  it("dates the number with the issue date in the entity's timezone", async () => {
    const { client, customerId } = await workspace({ timezone: 'Pacific/Auckland', invoice_number_pattern: '{YYYY}{MM}{DD}-{number}' });
    // 2026-12-31 20:00 UTC is already 1 January 2027 in Auckland (UTC+13 in summer).
    const body = { customer_id: customerId, line_items: [], emitted_at: '2026-12-31T20:00:00.000Z', status: 'to_pay' };
    expect((await client.post('/v1/invoices', body)).body.number).toBe('20270101-1');
  });

  it('never reuses a number after the entity is edited concurrently', async () => {
    const { client, entity, customerId } = await workspace();
    const ids = await drafts(client, customerId, 10);
    const validations = ids.map((id) => client.post(`/v1/invoices/${id}/validate`));
    const edits = Array.from({ length: 5 }, (_, i) => client.put(`/v1/invoicing-entities/${entity.id}`, { invoice_footer: `Footer ${i}` }));
    const replies = await Promise.all(validations);
    await Promise.all(edits);
    const numbers = new Set(replies.map((r) => r.body.number));
    expect(numbers.size).toBe(10);
    expect((await client.get(`/v1/invoicing-entities/${entity.id}`)).body.next_invoice_number).toBe(11);
  });
});

describe('formatNumber', () => {
  it('fills every pattern element', () => {
    expect(formatNumber('INV-{YYYY}-{MM}-{DD}-{number}', 7, new Date('2026-03-05T12:00:00Z'), 'Etc/UTC')).toBe('INV-2026-03-05-7');
    expect(formatNumber('{number}', 42, new Date('2026-03-05T12:00:00Z'), 'America/Los_Angeles')).toBe('42');
    expect(formatNumber('{DD}/{number}', 1, new Date('2026-03-05T03:00:00Z'), 'America/Los_Angeles')).toBe('04/1');
  });
});
