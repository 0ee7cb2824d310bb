import fc from 'fast-check';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

/**
 * Random sequences of payments, credit notes and voids on random invoices, through the HTTP API against DynamoDB
 * Local. After every step: amount_due = total − amount_paid − amount_credited and never negative; nobody pays more
 * than the total; nothing is refunded beyond what was paid; nothing is credited beyond the total; `refunded_at` is
 * set exactly when money went back.
 */
let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

type Step =
  | { kind: 'pay'; share: number; over: boolean }
  | { kind: 'credit'; share: number; refund_method?: 'none' | 'payment_method' }
  | { kind: 'void' };

const share = fc.integer({ min: 1, max: 100 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), share, over: fc.boolean() }),
  fc.record({ kind: fc.constant('credit' as const), share, refund_method: fc.constantFrom(undefined, 'none' as const, 'payment_method' as const) }, { requiredKeys: ['kind', 'share'] }),
  fc.record({ kind: fc.constant('void' as const) }),
);
const lines = fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 1, maxLength: 3 });

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const partOf = (amount: number, percent: number) => Math.max(1, Math.floor((amount * percent) / 100));

async function check(invoiceId: string, noteIds: string[]) {
  const invoice = (await client.get(`/v1/invoices/${invoiceId}`)).body;
  const notes = await Promise.all(noteIds.map(async (id) => (await client.get(`/v1/invoices/${id}`)).body));
  const paid = sum(invoice.transactions.filter((t: any) => t.type === 'payment' && t.status === 'succeeded').map((t: any) => t.amount));
  const refunds = notes.flatMap((n) => n.transactions.filter((t: any) => t.type === 'refund' && t.status === 'succeeded'));
  const refunded = sum(refunds.map((t: any) => t.amount));
  expect(invoice.amount_due).toBe(invoice.total_amount - invoice.amount_paid - invoice.amount_credited);
  expect(invoice.amount_due).toBeGreaterThanOrEqual(0);
  expect(invoice.amount_paid).toBe(paid);
  expect(paid + invoice.amount_credited).toBeLessThanOrEqual(invoice.total_amount);
  expect(refunded).toBeLessThanOrEqual(paid);
  expect(sum(notes.map((n) => n.total_amount))).toBeLessThanOrEqual(invoice.total_amount);
  expect(sum(notes.map((n) => n.amount_credited))).toBe(invoice.amount_credited);
  for (const note of notes) {
    expect(note.amount_paid).toBe(sum(note.transactions.map((t: any) => t.amount)));
    expect(note.amount_credited + note.amount_paid).toBeLessThanOrEqual(note.total_amount);
  }
  expect(invoice.refunded_at !== null).toBe(refunded > 0);
  return invoice;
}

describe('settlement of an invoice by payments, credit notes and voids (property)', () => {
  it('keeps amount_due = total − paid − credited, never negative, never paying or refunding too much', async () => {
    const customer = (await client.post('/v1/customers', { name: 'Random', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    await fc.assert(
      fc.asyncProperty(lines, fc.array(step, { minLength: 1, maxLength: 6 }), async (amounts, steps) => {
        const created = await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: amounts.map((a, i) => ({ name: `L${i}`, unit_amount: a })) });
        expect(created.status).toBe(201);
        const noteIds: string[] = [];
        let invoice = await check(created.body.id, noteIds);
        for (const s of steps) {
          if (s.kind === 'pay') {
            const amount = s.over ? invoice.amount_due + 1 : partOf(invoice.amount_due, s.share);
            const reply = await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount });
            const payable = ['to_pay', 'partially_paid', 'error'].includes(invoice.status);
            if (!payable) expect(reply.status).toBe(409);
            else if (s.over || invoice.amount_due === 0) expect([reply.status, reply.body.code]).toEqual([422, 'amount_exceeds_due']);
            else expect(reply.status).toBe(201);
          } else if (s.kind === 'credit') {
            const left = invoice.total_amount - sum(await Promise.all(noteIds.map(async (id) => (await client.get(`/v1/invoices/${id}`)).body.total_amount)));
            const reply = await client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: partOf(Math.max(left, 1), s.share), ...(s.refund_method && { refund_method: s.refund_method }) });
            if (reply.status === 201) noteIds.push(reply.body.id);
            else expect([409, 422]).toContain(reply.status);
          } else {
            const reply = await client.post(`/v1/invoices/${invoice.id}/void`);
            if (reply.status === 200) {
              expect(reply.body).toMatchObject({ status: 'voided', amount_due: 0 });
              const notes = (await client.get(`/v1/invoices?type=credit_note&take=100`)).body.data.filter((n: any) => n.original_invoice_id === invoice.id);
              for (const n of notes) if (!noteIds.includes(n.id)) noteIds.push(n.id);
            } else expect(reply.status).toBe(409);
          }
          invoice = await check(invoice.id, noteIds);
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
