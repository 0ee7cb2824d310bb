import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { stripeSuite } from '../support/stripe/suite';

const HOUR = 60 * 60 * 1000;

describeWithStripeFixtures('credit notes refunding money paid through Stripe (POST /v1/invoices/{id}/credit-notes)', () => {
  const s = stripeSuite();
  afterEach(() => s.clock.setOffset(0));

  /** An invoice of 120.00 EUR paid by `testMethod` through Stripe, and its PaymentIntent. */
  async function paidWith(testMethod: string) {
    const customer = (await s.client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: testMethod });
    const invoice = (await s.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    const paid = await s.client.post(`/v1/invoices/${invoice.id}/charge`);
    expect([paid.status, paid.body.status]).toEqual([200, 'paid']);
    return { invoice: paid.body, intentId: paid.body.transactions[0].provider_id as string };
  }
  const refundsOf = (intentId: string) => [...s.keys.account.refunds.values()].filter((r) => r.payment_intent === intentId);

  it('one Stripe Refund per credit note, keyed by the credit note; refunded_at once Stripe confirms', async () => {
    const { invoice, intentId } = await paidWith('pm_card_visa');
    const first = await s.client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 3_000, refund_method: 'payment_method' });
    expect([first.status, first.body.type, first.body.status, first.body.amount_paid, first.body.amount_due]).toEqual([201, 'credit_note', 'paid', 3_000, 0]);
    const [refund, ...others] = refundsOf(intentId);
    expect(others).toEqual([]);
    expect(refund).toMatchObject({ amount: 3_000, currency: 'eur', status: 'succeeded', metadata: { credit_note_id: first.body.id, invoice_id: invoice.id } });
    expect(s.env.standIn.requests.find((r) => r.path === '/v1/refunds' && r.idempotencyKey === `refund:${first.body.id}`)).toBeDefined();
    expect(first.body.refunded_at).toEqual(expect.any(String));
    expect(first.body.transactions).toEqual([expect.objectContaining({ type: 'refund', status: 'succeeded', amount: 3_000, provider_id: refund!.id, refunded_at: expect.any(String) })]);
    expect((await s.client.get(`/v1/invoices/${invoice.id}`)).body.refunded_at).toEqual(expect.any(String));

    // A second credit note is a second Refund; a wallet refund or none stays internal.
    const second = await s.client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 2_000, refund_method: 'payment_method' });
    expect([second.status, second.body.status]).toEqual([201, 'paid']);
    expect(refundsOf(intentId).map((r) => r.amount)).toEqual([3_000, 2_000]);
    expect((await s.client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 1_000, refund_method: 'none' })).status).toBe(201);
    expect(refundsOf(intentId)).toHaveLength(2);
  });

  it('no answer from Stripe: the credit note waits (to_pay, its refund pending), and the sync settles it with the same Refund', async () => {
    const { invoice, intentId } = await paidWith('pm_card_visa');
    s.env.standIn.cutAfterProcessing(/^\/v1\/refunds$/, 2); // the call and the SDK's own retry
    const waiting = await s.client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount: 12_000, refund_method: 'payment_method' });
    expect([waiting.status, waiting.body.status, waiting.body.refunded_at, waiting.body.amount_due]).toEqual([201, 'to_pay', null, 12_000]);
    expect(waiting.body.transactions).toEqual([expect.objectContaining({ type: 'refund', status: 'pending', provider_id: null })]);
    expect(refundsOf(intentId)).toHaveLength(1); // Stripe did refund

    s.clock.setOffset(HOUR + 60_000);
    const synced = await s.client.post('/v1/payment-providers/stripe/sync');
    expect(synced.body).toEqual({ checked: 1, settled: 1, still_pending: 0, more: false });
    const settled = (await s.client.get(`/v1/invoices/${waiting.body.id}`)).body;
    expect([settled.status, settled.amount_paid, settled.transactions[0].status, settled.transactions[0].provider_id]).toEqual(['paid', 12_000, 'succeeded', refundsOf(intentId)[0]!.id]);
    expect(refundsOf(intentId)).toHaveLength(1); // asked again under its key: Stripe's first Refund
  });
});
