import type Stripe from 'stripe';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { stripeSuite } from '../support/stripe/suite';

const WEBHOOK_SECRET = 'whsec_RefundEventsSecret0123456789';

describeWithStripeFixtures('Stripe\'s charge.refunded webhook: a credit note\'s pending (SEPA) refund settled at once', () => {
  const s = stripeSuite({ webhookSecret: WEBHOOK_SECRET });
  afterEach(() => s.clock.setOffset(0));

  const deliverThrice = async (type: string, object: { id: string }) => {
    const delivery = s.env.standIn.signedEvent(type, structuredClone(object), WEBHOOK_SECRET, s.keys.account);
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      const reply = await s.env.api.raw('POST', `/v1/payment-providers/stripe/webhooks/${s.client.workspace}`, {
        headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature }, body: delivery.payload,
      });
      expect(reply.status).toBe(200);
      outcomes.push(reply.body.outcome);
    }
    return outcomes;
  };

  /** An invoice of 120.00 EUR paid by SEPA Direct Debit through Stripe, a credit note refunding `amount` of it (pending), and its Refund. */
  async function pendingRefund(amount: number) {
    const customer = (await s.client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_sepaDebit' });
    const invoice = (await s.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    const charged = (await s.client.post(`/v1/invoices/${invoice.id}/charge`)).body;
    const intent = s.keys.account.settleProcessing(charged.transactions[0].provider_id, 'succeeded');
    expect(await deliverThrice('payment_intent.succeeded', intent)).toEqual(['settled', 'duplicate', 'duplicate']);
    const note = await s.client.post(`/v1/invoices/${invoice.id}/credit-notes`, { amount, refund_method: 'payment_method' });
    expect([note.status, note.body.status, note.body.transactions[0].status]).toEqual([201, 'to_pay', 'pending']);
    const refund = [...s.keys.account.refunds.values()].find((r) => r.metadata?.credit_note_id === note.body.id)!;
    const charge = s.keys.account.charges.get(intent.latest_charge as string)! as Stripe.Charge;
    return { invoice, note: note.body, refund, charge };
  }
  const invoiceNow = async (id: string) => (await s.client.get(`/v1/invoices/${id}`)).body;

  it('succeeded: the credit note paid and refunded_at set, once when delivered 3 times; an event while pending changes nothing', async () => {
    const { invoice, note, refund, charge } = await pendingRefund(5_000);
    const early = s.env.standIn.signedEvent('charge.refunded', structuredClone(charge), WEBHOOK_SECRET, s.keys.account); // sent while pending
    s.keys.account.settleRefund(refund.id, 'succeeded');
    expect(await deliverThrice('charge.refunded', charge)).toEqual(['settled', 'duplicate', 'duplicate']);
    const settled = await invoiceNow(note.id);
    expect([settled.status, settled.amount_paid, settled.amount_due, settled.refunded_at]).toEqual(['paid', 5_000, 0, expect.any(String)]);
    expect(settled.transactions).toEqual([expect.objectContaining({ type: 'refund', status: 'succeeded', provider_id: refund.id, refunded_at: settled.refunded_at })]);
    expect((await invoiceNow(invoice.id)).refunded_at).toEqual(settled.refunded_at);
    // The earlier delivery, late: the Refund is read from Stripe, already settled here.
    const late = await s.env.api.raw('POST', `/v1/payment-providers/stripe/webhooks/${s.client.workspace}`, {
      headers: { 'content-type': 'application/json', 'stripe-signature': early.signature }, body: early.payload,
    });
    expect(late.body.outcome).toBe('nothing');
    expect((await invoiceNow(note.id)).updated_at).toBe(settled.updated_at);
  });

  it('still pending at Stripe: nothing changes; failed: the refund transaction failed, the credit note to_pay, nothing refunded', async () => {
    const { invoice, note, refund, charge } = await pendingRefund(12_000);
    expect(await deliverThrice('charge.refunded', charge)).toEqual(['still_pending', 'still_pending', 'still_pending']);
    expect(await invoiceNow(note.id)).toMatchObject({ status: 'to_pay', transactions: [expect.objectContaining({ status: 'pending' })] });
    s.keys.account.settleRefund(refund.id, 'failed');
    expect(await deliverThrice('charge.refunded', charge)).toEqual(['settled', 'duplicate', 'duplicate']);
    const failed = await invoiceNow(note.id);
    expect([failed.status, failed.refunded_at, failed.transactions[0].status, failed.transactions[0].provider_id]).toEqual(['to_pay', null, 'failed', refund.id]);
    expect((await invoiceNow(invoice.id)).refunded_at).toBeNull();
  });
  it('refund.updated and refund.failed (a Refund\'s own events) settle it the same way, once', async () => {
    const succeeded = await pendingRefund(3_000);
    s.keys.account.settleRefund(succeeded.refund.id, 'succeeded');
    expect(await deliverThrice('refund.updated', s.keys.account.refunds.get(succeeded.refund.id)!)).toEqual(['settled', 'duplicate', 'duplicate']);
    expect((await invoiceNow(succeeded.note.id)).status).toBe('paid');
    const failed = await pendingRefund(2_000);
    s.keys.account.settleRefund(failed.refund.id, 'failed');
    expect(await deliverThrice('refund.failed', s.keys.account.refunds.get(failed.refund.id)!)).toEqual(['settled', 'duplicate', 'duplicate']);
    expect((await invoiceNow(failed.note.id)).transactions[0].status).toBe('failed');
  });

  it('its webhook lost: the check settles it from the Refund Stripe holds, a day later too, without a second Refund', async () => {
    const { note, refund } = await pendingRefund(4_000);
    s.keys.account.settleRefund(refund.id, 'succeeded'); // charge.refunded never arrives
    s.clock.setOffset(25 * 60 * 60 * 1000);
    s.env.standIn.expireIdempotencyKeys(); // past Stripe's 24 hours: the create's key no longer protects
    const synced = await s.client.post('/v1/payment-providers/stripe/sync');
    expect(synced.body).toEqual({ checked: 1, settled: 1, still_pending: 0, more: false });
    const settled = await invoiceNow(note.id);
    expect([settled.status, settled.transactions[0].status, settled.transactions[0].provider_id]).toEqual(['paid', 'succeeded', refund.id]);
    expect([...s.keys.account.refunds.values()].filter((r) => r.metadata?.credit_note_id === note.id)).toHaveLength(1);
  });
});
