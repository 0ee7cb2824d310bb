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
    expect(explicit.transactions[0].payment_method.type).toBe('transfer');
    expect((await other.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 6_000 });
  });

  it('never refunds more than was paid: the unpaid part is settled first, whatever the refund method', async () => {
    const invoice = (await client.post('/v1/invoices', { customer_id: (await customer()).id, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 10_000 }] })).body;
    await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 2_000 });
    // 12,000 − 2,000 paid: 10,000 unpaid. A credit of 3,000 only settles, even with payment_method asked.
    const settles = (await credit(invoice.id, { amount: 3_000, refund_method: 'payment_method' })).body;
    expect(settles).toMatchObject({ amount_credited: 3_000, amount_paid: 0, transactions: [] });
    const rest = (await credit(invoice.id, {})).body;
    expect(rest).toMatchObject({ total_amount: 9_000, amount_credited: 7_000, amount_paid: 2_000 });
    expect(rest.transactions).toEqual([expect.objectContaining({ type: 'refund', amount: 2_000 })]);
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

describe('credit notes and what the customer owes (amount_due = total − paid − credited)', () => {
  /** 15,920 + 20 % VAT = 19,104, of which 10,000 paid. */
  async function partlyPaid() {
    const invoice = (await client.post('/v1/invoices', { customer_id: (await customer()).id, status: 'to_pay', line_items: [{ name: 'Plan', unit_amount: 15_920 }] })).body;
    expect(invoice.total_amount).toBe(19_104);
    return (await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 10_000 })).body;
  }

  it('a credit note on the unpaid part lowers amount_due and refunds nothing', async () => {
    const invoice = await partlyPaid();
    const note = (await credit(invoice.id, { amount: 5_000 })).body;
    expect(note).toMatchObject({ type: 'credit_note', status: 'paid', total_amount: 5_000, amount_paid: 0, amount_credited: 5_000, amount_due: 0, transactions: [] });
    const after = (await client.get(`/v1/invoices/${invoice.id}`)).body;
    expect(after).toMatchObject({ status: 'partially_paid', total_amount: 19_104, amount_paid: 10_000, amount_credited: 5_000, amount_due: 4_104, refunded_at: null });
    const overpay = await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 9_104 });
    expect([overpay.status, overpay.body.code]).toEqual([422, 'amount_exceeds_due']);
    const rest = (await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 4_104 })).body;
    expect(rest).toMatchObject({ status: 'paid', amount_paid: 14_104, amount_credited: 5_000, amount_due: 0, settled_at: expect.any(String) });
  });

  it('a credit note beyond the unpaid part settles it first and refunds only the rest, up to what was paid', async () => {
    const invoice = await partlyPaid();
    const note = (await credit(invoice.id, { amount: 12_000, refund_method: 'payment_method' })).body;
    expect(note).toMatchObject({ status: 'paid', total_amount: 12_000, amount_credited: 9_104, amount_paid: 2_896 });
    expect(note.transactions).toEqual([expect.objectContaining({ type: 'refund', amount: 2_896, status: 'succeeded' })]);
    const after = (await client.get(`/v1/invoices/${invoice.id}`)).body;
    expect(after).toMatchObject({ status: 'paid', amount_paid: 10_000, amount_credited: 9_104, amount_due: 0, refunded_at: expect.any(String), settled_at: expect.any(String) });
    const pay = await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 1 });
    expect(pay.status).toBe(409);
    const last = (await credit(invoice.id, {})).body;
    expect(last).toMatchObject({ total_amount: 7_104, amount_credited: 0, amount_paid: 7_104 });
    expect(last.transactions.reduce((sum: number, t: any) => sum + t.amount, 0) + 2_896).toBe(10_000);
    expect((await credit(invoice.id, { amount: 1 })).body.code).toBe('credit_exceeds_uncredited');
  });

  it('a credit note settling the whole unpaid invoice makes it paid, without refunded_at', async () => {
    const invoice = (await client.post('/v1/invoices', { customer_id: (await customer()).id, status: 'to_pay', line_items: [{ name: 'A', unit_amount: 1_000 }] })).body;
    await credit(invoice.id, { amount: 200 });
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body).toMatchObject({ status: 'to_pay', amount_due: 1_000, amount_credited: 200 });
    await credit(invoice.id, {});
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 0, amount_credited: 1_200, refunded_at: null });
  });
});
