import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const customer = async (c: Client = client) => (await c.post('/v1/customers', { name: 'Credited', currency: 'EUR', billing_address: { country: 'FR' } })).body;
/** A paid invoice of two lines: 10,000 + 5,000 excluding tax, 20 % VAT → 18,000. */
async function paidInvoice(c: Client = client, customerId?: string) {
  const owner = customerId ?? (await customer(c)).id;
  const invoice = (await c.post('/v1/invoices', { customer_id: owner, status: 'to_pay', line_items: [{ name: 'Plan', unit_amount: 10_000 }, { name: 'Extra', unit_amount: 5_000 }] })).body;
  return (await c.post(`/v1/invoices/${invoice.id}/transactions`, { amount: invoice.amount_due })).body;
}
const credit = (id: string, body: Record<string, unknown>, c: Client = client) => c.post(`/v1/invoices/${id}/credit-notes`, body);

describe('credit notes', () => {
  it('credits a paid invoice in full, numbered from its own sequence, and refunds it to the payment method', async () => {
    const invoice = await paidInvoice();
    const reply = await credit(invoice.id, { reason: 'Cancelled order' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      id: expect.stringMatching(/^inv_/), type: 'credit_note', number: 'CN-1', status: 'paid', original_invoice_id: invoice.id, original_invoice_number: invoice.number,
      total_amount: 18_000, amount_excluding_tax: 15_000, tax_amount: 3_000, amount_paid: 18_000, amount_due: 0, custom_note: 'Cancelled order',
      customer: invoice.customer, seller: invoice.seller,
    });
    expect(reply.body.line_items.map((l: any) => [l.original_line_item_id, l.amount, l.tax_amount])).toEqual([
      [invoice.line_items[0].id, 12_000, 2_000], [invoice.line_items[1].id, 6_000, 1_000],
    ]);
    expect(reply.body.transactions).toEqual([expect.objectContaining({ type: 'refund', amount: 18_000, status: 'succeeded' })]);
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body.refunded_at).toEqual(expect.any(String));
    const more = await credit(invoice.id, { amount: 1 });
    expect([more.status, more.body.code]).toEqual([422, 'credit_exceeds_uncredited']);
  });

  it('credits by line or by amount, splitting the tax in the line proportion', async () => {
    const invoice = await paidInvoice();
    const byLine = (await credit(invoice.id, { line_items: [{ line_item_id: invoice.line_items[1].id, amount: 3_000 }], refund_method: 'none' })).body;
    expect(byLine).toMatchObject({ total_amount: 3_000, tax_amount: 500, amount_excluding_tax: 2_500, transactions: [] });
    const tooMuch = await credit(invoice.id, { line_items: [{ line_item_id: invoice.line_items[1].id, amount: 3_001 }] });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([422, 'credit_exceeds_uncredited']);
    const rest = (await credit(invoice.id, { amount: 15_000, refund_method: 'none' })).body;
    expect(rest.line_items.map((l: any) => l.amount)).toEqual([12_000, 3_000]);
    const unknown = await credit(invoice.id, { line_items: [{ line_item_id: 'ili_nope' }] });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'line_item_not_found']);
  });

  it('refunds to the wallet when the entity says so, crediting it in the same transaction', async () => {
    const other = await api.client();
    await withEntity(other, { credit_note_wallet_refund_enabled: true });
    const owner = await customer(other);
    const wallet = (await other.post('/v1/wallets', { customer_id: owner.id })).body;
    const invoice = await paidInvoice(other, owner.id);
    const note = (await credit(invoice.id, { amount: 6_000 }, other)).body;
    expect(note.transactions[0]).toMatchObject({ type: 'refund', amount: 6_000, payment_method: { id: wallet.id, type: 'wallet' } });
    expect((await other.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 6_000 });
    const entry = (await other.get(`/v1/wallets/${wallet.id}/transactions`)).body.data[0];
    expect(entry).toMatchObject({ type: 'credit_paid', amount: 6_000, invoice_id: note.id });
    const explicit = (await credit(invoice.id, { amount: 1_000, refund_method: 'payment_method' }, other)).body;
    expect(explicit.transactions[0].payment_method.type).toBe('payment_method');
    expect((await other.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 6_000 });
  });

  it('never refunds more than was paid', async () => {
    const invoice = (await client.post('/v1/invoices', { customer_id: (await customer()).id, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 10_000 }] })).body;
    await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 2_000 });
    const refund = await credit(invoice.id, { amount: 3_000, refund_method: 'payment_method' });
    expect([refund.status, refund.body.code]).toEqual([422, 'refund_exceeds_paid']);
    // Omitted, on a partially paid invoice: no refund (decisions.md: the payment method only for paid invoices).
    const fine = await credit(invoice.id, { amount: 3_000 });
    expect(fine.body.transactions).toEqual([]);
    expect((await credit(invoice.id, { amount: 2_000, refund_method: 'payment_method' })).body.transactions[0]).toMatchObject({ type: 'refund', amount: 2_000 });
  });

  it('never exceeds the uncredited amount under concurrent credit notes', async () => {
    const invoice = await paidInvoice();
    const replies = await Promise.all(Array.from({ length: 10 }, () => credit(invoice.id, { amount: 5_000 })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(3);
    expect(replies.filter((r) => r.status !== 201).every((r) => r.status === 422 && r.body.code === 'credit_exceeds_uncredited')).toBe(true);
    const numbers = replies.filter((r) => r.status === 201).map((r) => r.body.number).sort();
    expect(new Set(numbers).size).toBe(3);
    const notes = (await client.get(`/v1/invoices?type=credit_note&take=100`)).body.data.filter((n: any) => n.original_invoice_id === invoice.id);
    expect(notes.reduce((sum: number, n: any) => sum + n.total_amount, 0)).toBe(15_000);
  });

  it('voids a to_pay invoice with a full credit note, and only a to_pay one', async () => {
    const invoice = (await client.post('/v1/invoices', { customer_id: (await customer()).id, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 700 }] })).body;
    const voided = await client.post(`/v1/invoices/${invoice.id}/void`);
    expect([voided.status, voided.body.status]).toEqual([200, 'voided']);
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body).toEqual(voided.body);
    const note = (await client.get(`/v1/invoices?type=credit_note&take=100`)).body.data.find((n: any) => n.original_invoice_id === invoice.id);
    expect(note).toMatchObject({ total_amount: 840, transactions: [], status: 'paid' });
    expect((await client.post(`/v1/invoices/${invoice.id}/void`)).status).toBe(409);
    const paid = await paidInvoice();
    expect((await client.post(`/v1/invoices/${paid.id}/void`)).status).toBe(409);
    const draft = (await client.post('/v1/invoices', { customer_id: (await customer()).id, line_items: [] })).body;
    expect((await credit(draft.id, {})).status).toBe(409);
  });
});
