import { startTestApi, type Client, type TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const base = { name: 'Acme SAS', country: 'FR', currency: 'EUR' };

async function defaults(client: Client): Promise<string[]> {
  const list = await client.get('/v1/invoicing-entities?take=100');
  return list.body.data.filter((e: { is_default: boolean }) => e.is_default).map((e: { id: string }) => e.id);
}

describe('invoicing entities', () => {
  it('creates with the spec defaults; the first entity becomes the default', async () => {
    const client = await api.client();
    const reply = await client.post('/v1/invoicing-entities', base);
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      name: 'Acme SAS', country: 'FR', currency: 'EUR', accounting_currency: 'EUR', is_default: true,
      next_invoice_number: 1, next_credit_note_number: 1, next_document_number: 1,
      default_payment_delay: 30, invoice_grace_period_duration: 0, deleted_at: null, tax_id_valid: null,
      invoice_footer: '', document_footer: '', brand_color: null, forced_customer_type: null,
    });
    for (const pattern of ['invoice_number_pattern', 'credit_note_number_pattern', 'document_number_pattern']) {
      expect(reply.body[pattern]).toContain('{number}');
    }
    expect(reply.body.id).toMatch(/^ive_/);
    expect(reply.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(reply.body).not.toHaveProperty('trade_name');
    expect((await client.get(`/v1/invoicing-entities/${reply.body.id}`)).body).toEqual(reply.body);
  });

  it('falls back to the invoice footer for documents until a document footer is set', async () => {
    const client = await api.client();
    const entity = (await client.post('/v1/invoicing-entities', { ...base, invoice_footer: 'Thanks!' })).body;
    expect(entity.document_footer).toBe('Thanks!');
    const updated = (await client.put(`/v1/invoicing-entities/${entity.id}`, { document_footer: 'Docs' })).body;
    expect(updated.document_footer).toBe('Docs');
    const reset = (await client.put(`/v1/invoicing-entities/${entity.id}`, { document_footer: null, invoice_footer: 'Bye' })).body;
    expect(reset.document_footer).toBe('Bye');
  });

  it.each([
    [{ brand_color: 'red' }, 'body.brand_color'],
    [{ brand_color: '#12' }, 'body.brand_color'],
    [{ brand_color: '#1234567890' }, 'body.brand_color'],
    [{ brand_color: '#GGGGGG' }, 'body.brand_color'],
    [{ invoice_number_pattern: 'INV-{YYYY}' }, 'body.invoice_number_pattern'],
    [{ credit_note_number_pattern: 'CN-{number}-{HH}' }, 'body.credit_note_number_pattern'],
    [{ language: 'xx' }, 'body.language'],
    [{ next_invoice_number: 0 }, 'body.next_invoice_number'],
    [{ default_payment_delay: -1 }, 'body.default_payment_delay'],
  ])('rejects %j', async (body, path) => {
    const client = await api.client();
    const reply = await client.post('/v1/invoicing-entities', { ...base, ...body });
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it.each(['#abc', '#abcd', '#a1b2c3', '#A1B2C3D4'])('accepts the colour %s', async (brand_color) => {
    const client = await api.client();
    const reply = await client.post('/v1/invoicing-entities', { ...base, brand_color });
    expect(reply.status).toBe(201);
    expect(reply.body.brand_color).toBe(brand_color);
  });

  it('accepts patterns with date elements', async () => {
    const client = await api.client();
    const reply = await client.post('/v1/invoicing-entities', { ...base, invoice_number_pattern: '{YYYY}{MM}{DD}-{number}' });
    expect(reply.status).toBe(201);
  });

  it('setting a default unsets the previous one', async () => {
    const client = await api.client();
    const first = (await client.post('/v1/invoicing-entities', base)).body;
    const second = (await client.post('/v1/invoicing-entities', { ...base, name: 'Second' })).body;
    expect(second.is_default).toBe(false);
    const third = (await client.post('/v1/invoicing-entities', { ...base, name: 'Third', is_default: true })).body;
    expect(third.is_default).toBe(true);
    expect(await defaults(client)).toEqual([third.id]);
    const promoted = await client.put(`/v1/invoicing-entities/${second.id}`, { is_default: true });
    expect(promoted.body.is_default).toBe(true);
    expect(await defaults(client)).toEqual([second.id]);
    expect((await client.get(`/v1/invoicing-entities/${first.id}`)).body.is_default).toBe(false);
  });

  it('keeps exactly one default under concurrent changes', async () => {
    const client = await api.client();
    const entities = [];
    for (let i = 0; i < 6; i++) entities.push((await client.post('/v1/invoicing-entities', { ...base, name: `E${i}` })).body);
    const replies = await Promise.all(entities.map((e) => client.put(`/v1/invoicing-entities/${e.id}`, { is_default: true })));
    expect(replies.map((r) => r.status)).toEqual(entities.map(() => 200));
    expect(await defaults(client)).toHaveLength(1);
  });

  it('keeps exactly one default when entities are created concurrently as default', async () => {
    const client = await api.client();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => client.post('/v1/invoicing-entities', { ...base, name: `C${i}`, is_default: i % 2 === 0 })),
    );
    expect(replies.every((r) => r.status === 201)).toBe(true);
    expect(await defaults(client)).toHaveLength(1);
  });

  it('refuses to unset or delete the default; deletes others softly', async () => {
    const client = await api.client();
    const main = (await client.post('/v1/invoicing-entities', base)).body;
    const other = (await client.post('/v1/invoicing-entities', { ...base, name: 'Other' })).body;
    expect((await client.put(`/v1/invoicing-entities/${main.id}`, { is_default: false })).status).toBe(422);
    const refused = await client.delete(`/v1/invoicing-entities/${main.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('default_invoicing_entity_required');

    const deleted = await client.delete(`/v1/invoicing-entities/${other.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await client.delete(`/v1/invoicing-entities/${other.id}`)).body).toEqual(deleted.body);
    expect((await client.get(`/v1/invoicing-entities/${other.id}`)).body.deleted_at).toBe(deleted.body.deleted_at);
    const list = (await client.get('/v1/invoicing-entities')).body;
    expect(list.meta).toEqual({ total: 1, taken: 1, skipped: 0, approximateCount: false });
    expect((await client.put(`/v1/invoicing-entities/${other.id}`, { name: 'X' })).status).toBe(409);
    const customer = await client.post('/v1/customers', { name: 'X', invoicing_entity_id: other.id });
    expect(customer.status).toBe(422);
  });

  it('moves counters forward only', async () => {
    const client = await api.client();
    const entity = (await client.post('/v1/invoicing-entities', { ...base, next_invoice_number: 100 })).body;
    expect(entity.next_invoice_number).toBe(100);
    expect((await client.put(`/v1/invoicing-entities/${entity.id}`, { next_invoice_number: 150 })).body.next_invoice_number).toBe(150);
    const back = await client.put(`/v1/invoicing-entities/${entity.id}`, { next_invoice_number: 149 });
    expect(back.status).toBe(422);
    expect(back.body.code).toBe('invalid_number_sequence');
  });

  it('updates partially and clears nullable members with null', async () => {
    const client = await api.client();
    const entity = (await client.post('/v1/invoicing-entities', { ...base, trade_name: 'Acme', city: 'Paris', tax_id: 'FR1' })).body;
    expect(entity.trade_name).toBe('Acme');
    const updated = (await client.put(`/v1/invoicing-entities/${entity.id}`, { trade_name: null, city: 'Lyon' })).body;
    expect(updated).not.toHaveProperty('trade_name');
    expect(updated).toMatchObject({ city: 'Lyon', tax_id: 'FR1', name: 'Acme SAS' });
  });

  it('pages with take and skip, oldest first, with the total', async () => {
    const client = await api.client();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await client.post('/v1/invoicing-entities', { ...base, name: `P${i}` })).body.id);
    const page = (await client.get('/v1/invoicing-entities?take=2&skip=1')).body;
    expect(page.meta).toEqual({ total: 5, taken: 2, skipped: 1, approximateCount: false });
    expect(page.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(1, 3));
    expect((await client.get('/v1/invoicing-entities?take=101')).status).toBe(400);
    expect((await client.get('/v1/invoicing-entities?skip=-1')).status).toBe(400);
    expect((await client.get('/v1/invoicing-entities?foo=1')).status).toBe(400);
  });
});
