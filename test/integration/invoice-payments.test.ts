import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
});
afterAll(() => api.close());

const customer = async () => (await client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
/** A to_pay invoice of `amount` excluding tax (20 % VAT on top). */
const toPay = async (customerId: string, amount = 10_000) =>
  (await client.post('/v1/invoices', { customer_id: customerId, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: amount }] })).body;
const pay = (id: string, body: Record<string, unknown>) => client.post(`/v1/invoices/${id}/transactions`, body);
const card = async (customerId: string, token: string) => (await client.post(`/v1/customers/${customerId}/payment-methods`, { token })).body;

describe('manual transactions', () => {
  it('moves to_pay → partially_paid → paid, with amount_due = total − paid and settled_at at full payment', async () => {
    const invoice = await toPay((await customer()).id);
    expect(invoice.total_amount).toBe(12_000);
    const part = await pay(invoice.id, { amount: 2_000, comment: 'first instalment' });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({ status: 'partially_paid', amount_paid: 2_000, amount_due: 10_000, settled_at: null });
    expect(part.body.transactions[0]).toMatchObject({
      id: expect.stringMatching(/^tra_/), type: 'payment', amount: 2_000, currency: 'EUR', status: 'succeeded', payment_method: { type: 'transfer' }, comment: 'first instalment',
    });
    const over = await pay(invoice.id, { amount: 10_001 });
    expect([over.status, over.body.code]).toEqual([422, 'amount_exceeds_due']);
    const rest = await pay(invoice.id, { amount: 10_000 });
    // Payments recorded outside are no charge attempts (Hyperline's attempt_count).
    expect(rest.body).toMatchObject({ status: 'paid', amount_paid: 12_000, amount_due: 0, settled_at: expect.any(String), attempt_count: 0 });
    const again = await pay(invoice.id, { amount: 1 });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state_transition']);
  });

  it('refuses payments on drafts (409)', async () => {
    const draft = (await client.post('/v1/invoices', { customer_id: (await customer()).id, line_items: [{ name: 'A', unit_amount: 100 }] })).body;
    expect((await pay(draft.id, { amount: 50 })).status).toBe(409);
  });

  it('never takes more than the amount due under concurrent payments', async () => {
    const invoice = await toPay((await customer()).id);
    const replies = await Promise.all(Array.from({ length: 10 }, () => pay(invoice.id, { amount: 6_000 })));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(2);
    expect(replies.filter((r) => r.status !== 201).map((r) => r.body.code)).toEqual(Array(8).fill(expect.stringMatching(/^(amount_exceeds_due|invalid_state_transition)$/)));
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body).toMatchObject({ status: 'paid', amount_paid: 12_000, amount_due: 0 });
  });

  it('pays from the wallet, debiting it in the same transaction', async () => {
    const payer = await customer();
    const wallet = (await client.post('/v1/wallets', { customer_id: payer.id })).body;
    await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'free', amount: 5_000 });
    const invoice = await toPay(payer.id, 5_000);
    const short = await pay(invoice.id, { amount: 6_000, payment_method_type: 'wallet' });
    expect([short.status, short.body.code]).toEqual([422, 'insufficient_wallet_balance']);
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body.amount_paid).toBe(0);
    const paid = await pay(invoice.id, { amount: 5_000, payment_method_type: 'wallet' });
    expect(paid.body).toMatchObject({ status: 'partially_paid', amount_paid: 5_000 });
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 0 });
    const debit = (await client.get(`/v1/wallets/${wallet.id}/transactions`)).body.data[0];
    expect(debit).toMatchObject({ type: 'debit', amount: 5_000, invoice_id: invoice.id, balance_after: 0 });
    await client.put(`/v1/wallets/${wallet.id}`, { state: 'paused' });
    const paused = await pay(invoice.id, { amount: 1, payment_method_type: 'wallet' });
    expect([paused.status, paused.body.code]).toEqual([422, 'wallet_paused']);
  });
});

describe('POST /v1/invoices/{id}/charge', () => {
  it('leaves the invoice in error with a failed transaction on a decline, then a tok_visa charge pays it', async () => {
    const payer = await customer();
    const declined = await card(payer.id, 'tok_chargeDeclined');
    const invoice = await toPay(payer.id);
    const failed = await client.post(`/v1/invoices/${invoice.id}/charge`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'error', amount_paid: 0, amount_due: 12_000, payment_method_id: declined.id, attempt_count: 1 });
    expect(failed.body.transactions).toEqual([
      expect.objectContaining({ status: 'failed', error_type: 'payment_method_declined', amount: 12_000, provider_id: expect.stringMatching(/^sbx_ch_/), payment_method: { id: declined.id, status: 'active', type: 'card', last_4_digits: 2, expiration_date: expect.stringMatching(/^\d{4}-\d{2}$/), brand: 'visa' } }),
    ]);
    const visa = await card(payer.id, 'tok_visa');
    const paid = await client.post(`/v1/invoices/${invoice.id}/charge`, { payment_method_id: visa.id });
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 12_000, amount_due: 0, payment_method_id: visa.id, settled_at: expect.any(String), attempt_count: 2 });
    expect(paid.body.transactions.map((t: any) => t.status)).toEqual(['failed', 'succeeded']);
    const twice = await client.post(`/v1/invoices/${invoice.id}/charge`);
    expect([twice.status, twice.body.code]).toEqual([409, 'invalid_state_transition']);
  });

  it('reports insufficient funds as declined, and needs a payment method', async () => {
    const payer = await customer();
    const invoice = await toPay(payer.id);
    const none = await client.post(`/v1/invoices/${invoice.id}/charge`);
    expect([none.status, none.body.code]).toEqual([422, 'payment_method_missing']);
    await card(payer.id, 'tok_insufficientFunds');
    const failed = (await client.post(`/v1/invoices/${invoice.id}/charge`)).body;
    expect(failed.transactions[0].error_type).toBe('declined');
    const foreign = await client.post(`/v1/invoices/${invoice.id}/charge`, { payment_method_id: (await card((await customer()).id, 'tok_visa')).id });
    expect([foreign.status, foreign.body.code]).toEqual([422, 'payment_method_not_found']);
  });

  it('refuses drafts (409) and charges once when two charges race', async () => {
    const payer = await customer();
    await card(payer.id, 'tok_visa');
    const draft = (await client.post('/v1/invoices', { customer_id: payer.id, line_items: [{ name: 'A', unit_amount: 100 }] })).body;
    expect((await client.post(`/v1/invoices/${draft.id}/charge`)).status).toBe(409);
    const invoice = await toPay(payer.id);
    const replies = await Promise.all(Array.from({ length: 5 }, () => client.post(`/v1/invoices/${invoice.id}/charge`)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    const final = (await client.get(`/v1/invoices/${invoice.id}`)).body;
    expect(final.transactions.filter((t: any) => t.status === 'succeeded')).toHaveLength(1);
    expect(final.amount_paid).toBe(12_000);
  });
});

describe('paid wallet loads', () => {
  it('create a to_pay invoice and credit the wallet once, when that invoice is paid', async () => {
    const payer = await customer();
    const wallet = (await client.post('/v1/wallets', { customer_id: payer.id })).body;
    await client.post(`/v1/wallets/${wallet.id}/load`, { type: 'paid', amount: 3_000, comment: 'top-up' });
    const [invoice] = (await client.get(`/v1/invoices?customer_id=${payer.id}`)).body.data;
    expect(invoice).toMatchObject({ status: 'to_pay', total_amount: 3_000, tax_amount: 0, tax_scheme: 'not_eligible', number: expect.any(String) });
    expect(invoice.line_items[0]).toMatchObject({ entry_type: 'wallet_load', name: 'Wallet load', description: 'top-up' });
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 0 });
    const fromWallet = await pay(invoice.id, { amount: 3_000, payment_method_type: 'wallet' });
    expect([fromWallet.status, fromWallet.body.code]).toEqual([422, 'wallet_load_not_payable_from_wallet']);
    await pay(invoice.id, { amount: 1_000 });
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 0 });
    await pay(invoice.id, { amount: 2_000 });
    expect((await client.get(`/v1/wallets/${wallet.id}`)).body.balance).toEqual({ amount: 3_000 });
    const credit = (await client.get(`/v1/wallets/${wallet.id}/transactions`)).body.data[0];
    expect(credit).toMatchObject({ type: 'credit_paid', amount: 3_000, invoice_id: invoice.id, balance_after: 3_000 });
  });
});
