import { jest } from '@jest/globals';
import Stripe from 'stripe';
import { setAfterSendHook } from '../../shared/db/client';
import { CHARGE_LOCK_MS } from '../../shared/domain/invoices/payments';
import { stripeApiLocation } from '../../shared/domain/payments/stripe/client';
import { LOCK_TIMEOUT_MS } from '../../shared/http/idempotency';
import type { Client } from '../support/api';
import { movableClock } from '../support/clock';
import { startStripeTestApi, type StripeTestApi } from '../support/stripe/api';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import type { StandInKeys } from '../support/stripe/server';

describeWithStripeFixtures('charging invoices through Stripe (POST /v1/invoices/{id}/charge)', () => {
  let env: StripeTestApi;
  let client: Client;
  let keys: StandInKeys;
  const clock = movableClock();
  beforeAll(async () => {
    env = await startStripeTestApi();
    ({ client, keys } = await env.connectedClient());
  });
  afterAll(async () => {
    setAfterSendHook(undefined);
    await env.close();
    clock.restore();
  });
  afterEach(() => {
    setAfterSendHook(undefined);
    clock.setOffset(0);
  });

  /** A customer with a saved Stripe method and a to_pay invoice of 100.00 + 20 % VAT = 120.00 EUR. */
  async function invoiceFor(testMethod: string) {
    const customer = (await client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    const method = await client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: testMethod });
    expect(method.status).toBe(201);
    const invoice = (await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    expect(invoice.amount_due).toBe(12_000);
    return invoice as { id: string; customer_id: string };
  }
  const charge = (id: string, headers: Record<string, string> = {}) =>
    env.api.raw('POST', `/v1/invoices/${id}/charge`, { headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', ...headers }, body: '{}' });
  const intentsOf = (invoiceId: string) => [...keys.account.paymentIntents.values()].filter((pi) => pi.metadata.invoice_id === invoiceId);

  it('pm_card_visa: one PaymentIntent off session, the invoice paid, the transaction naming it with Stripe\'s fee', async () => {
    const invoice = await invoiceFor('pm_card_visa');
    const reply = await charge(invoice.id);
    expect([reply.status, reply.body.status, reply.body.amount_due, reply.body.amount_paid]).toEqual([200, 'paid', 0, 12_000]);
    const [intent, ...others] = intentsOf(invoice.id);
    expect(others).toEqual([]);
    const [stripeCustomer] = [...keys.account.customers.values()].filter((c) => c.metadata.customer_id === invoice.customer_id);
    expect(intent).toMatchObject({ amount: 12_000, currency: 'eur', status: 'succeeded', customer: stripeCustomer!.id });
    expect(intent!.metadata).toEqual({ workspace_id: client.workspace, invoice_id: invoice.id, attempt_id: reply.body.transactions[0].id });
    expect(reply.body.transactions).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: 12_000, provider_id: intent!.id, provider_fee: Math.round(12_000 * 0.015) + 25, error_type: null }),
    ]);
    expect(env.standIn.requests.find((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === `charge:${reply.body.transactions[0].id}`)).toBeDefined();
  });

  it.each([
    ['pm_card_chargeDeclined', 'generic_decline'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ])('%s: the invoice in error, a failed transaction with Stripe\'s decline code %s', async (testMethod, declineCode) => {
    const invoice = await invoiceFor(testMethod);
    const reply = await charge(invoice.id);
    expect([reply.status, reply.body.status, reply.body.amount_due]).toEqual([200, 'error', 12_000]);
    expect(reply.body.transactions).toEqual([
      expect.objectContaining({ status: 'failed', provider_id: intentsOf(invoice.id)[0]!.id, error_type: declineCode, provider_fee: null, comment: expect.any(String) }),
    ]);
  });

  it.each([
    ['pm_card_authenticationRequired', 'authentication_required', 'requires_payment_method'],
    ['pm_sepaDebit', 'processing', 'processing'],
  ])('%s: a pending transaction (%s), the invoice still to pay, and no second charge until Stripe says', async (testMethod, reason, stripeStatus) => {
    const invoice = await invoiceFor(testMethod);
    const reply = await charge(invoice.id);
    expect([reply.status, reply.body.status, reply.body.amount_due]).toEqual([200, 'to_pay', 12_000]);
    const [intent] = intentsOf(invoice.id);
    expect(intent!.status).toBe(stripeStatus);
    expect(reply.body.transactions).toEqual([expect.objectContaining({ status: 'pending', provider_id: intent!.id, error_type: reason })]);
    const again = await charge(invoice.id);
    expect([again.status, again.body.code]).toEqual([409, 'charge_pending']);
    const byHand = await client.post(`/v1/invoices/${invoice.id}/transactions`, { amount: 12_000 });
    expect([byHand.status, byHand.body.code]).toEqual([409, 'charge_pending']);
    expect(intentsOf(invoice.id)).toHaveLength(1);
  });

  it('a charge Stripe refuses as asked (under its minimum amount) is a failed attempt with its code, not an error of ours', async () => {
    const customer = (await client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    await client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_visa' });
    const invoice = (await client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Tiny', unit_amount: 30 }] })).body;
    const reply = await charge(invoice.id);
    expect([reply.status, reply.body.status]).toEqual([200, 'error']);
    expect(reply.body.transactions).toEqual([expect.objectContaining({ status: 'failed', provider_id: null, error_type: 'amount_too_small' })]);
    expect(intentsOf(invoice.id)).toEqual([]);
  });

  it('50 concurrent charges of one invoice make one PaymentIntent and one payment', async () => {
    const invoice = await invoiceFor('pm_card_visa');
    const replies = await Promise.all(Array.from({ length: 50 }, () => charge(invoice.id)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    // Refused while the charge runs, or once the invoice is paid.
    const refusals = new Set(replies.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.body.code}`));
    expect([...refusals].filter((r) => r !== '409 charge_in_progress' && r !== '409 invalid_state_transition')).toEqual([]);
    expect(intentsOf(invoice.id)).toHaveLength(1);
    const final = (await client.get(`/v1/invoices/${invoice.id}`)).body;
    expect([final.status, final.amount_paid, final.transactions.length]).toEqual(['paid', 12_000, 1]);
  }, 60_000);

  /** Our process dies after Stripe accepted the PaymentIntent, before the outcome is written (the next table read fails). */
  function dieAfterStripeAccepted(invoiceId: string) {
    setAfterSendHook((name) => {
      if (name !== 'GetItemCommand' || intentsOf(invoiceId).length === 0) return;
      setAfterSendHook(undefined);
      throw new Error('killed after Stripe accepted');
    });
  }

  it('a crash after Stripe accepted, before our commit, retried with the same Idempotency-Key: one PaymentIntent, one payment', async () => {
    const invoice = await invoiceFor('pm_card_visa');
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    dieAfterStripeAccepted(invoice.id);
    expect((await charge(invoice.id, { 'idempotency-key': `pay-${invoice.id}` })).status).toBe(500);
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body).toMatchObject({ status: 'to_pay', transactions: [] });
    const creates = () => env.standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length;
    const before = creates();
    clock.setOffset(LOCK_TIMEOUT_MS + 1_000);
    const retry = await charge(invoice.id, { 'idempotency-key': `pay-${invoice.id}` });
    expect([retry.status, retry.body.status, retry.body.transactions.length]).toEqual([200, 'paid', 1]);
    expect(intentsOf(invoice.id)).toHaveLength(1);
    expect(creates() - before).toBe(0); // the resumed attempt found the PaymentIntent it had made among the customer's
    logged.mockRestore();
  });

  it('the same crash without an Idempotency-Key: the next charge is the crashed attempt again, under its key', async () => {
    const invoice = await invoiceFor('pm_card_visa');
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    dieAfterStripeAccepted(invoice.id);
    expect((await charge(invoice.id)).status).toBe(500);
    expect((await charge(invoice.id)).body.code).toBe('charge_in_progress'); // the crashed charge still holds it
    clock.setOffset(CHARGE_LOCK_MS + 1_000);
    const retry = await charge(invoice.id);
    expect([retry.status, retry.body.status, retry.body.transactions.length]).toEqual([200, 'paid', 1]);
    expect(intentsOf(invoice.id)).toHaveLength(1);
    logged.mockRestore();
  });

  it('no answer from Stripe: a 503, the attempt kept; the retry learns what Stripe did instead of charging again', async () => {
    const invoice = await invoiceFor('pm_card_visa');
    env.standIn.cutAfterProcessing(/^\/v1\/payment_intents$/, 2); // the call and the SDK's own retry
    const lost = await charge(invoice.id);
    expect([lost.status, lost.body.code]).toEqual([503, 'service_unavailable']);
    expect(intentsOf(invoice.id)).toHaveLength(1); // Stripe did charge
    expect((await client.get(`/v1/invoices/${invoice.id}`)).body).toMatchObject({ status: 'to_pay', transactions: [] });
    const retry = await charge(invoice.id); // at once: nothing is running
    expect([retry.status, retry.body.status, retry.body.transactions[0].provider_id]).toEqual([200, 'paid', intentsOf(invoice.id)[0]!.id]);
    expect(intentsOf(invoice.id)).toHaveLength(1);
  });

  it('no answer, and the retry only after Stripe forgot the key (24 hours): the attempt\'s PaymentIntent is found, not made again', async () => {
    const invoice = await invoiceFor('pm_card_visa');
    env.standIn.cutAfterProcessing(/^\/v1\/payment_intents$/, 2); // the call and the SDK's own retry
    expect((await charge(invoice.id)).status).toBe(503);
    expect(intentsOf(invoice.id)).toHaveLength(1); // Stripe did charge
    env.standIn.expireIdempotencyKeys();
    const retry = await charge(invoice.id);
    expect([retry.status, retry.body.status, retry.body.transactions[0].provider_id]).toEqual([200, 'paid', intentsOf(invoice.id)[0]!.id]);
    expect(retry.body.transactions[0].provider_fee).toEqual(expect.any(Number));
    expect(intentsOf(invoice.id)).toHaveLength(1);
  });

  it('the same, with the customer charged 150 more times at Stripe meanwhile: the search goes through every page and finds it', async () => {
    const invoice = await invoiceFor('pm_card_visa');
    env.standIn.cutAfterProcessing(/^\/v1\/payment_intents$/, 2);
    expect((await charge(invoice.id)).status).toBe(503);
    const [made] = intentsOf(invoice.id);
    const stripe = new Stripe(keys.secretKey, stripeApiLocation(env.standIn.url));
    for (let i = 0; i < 150; i++) {
      await stripe.paymentIntents.create({ amount: 100, currency: 'eur', customer: made!.customer as string, payment_method: made!.payment_method as string, confirm: true, off_session: true });
    }
    env.standIn.expireIdempotencyKeys();
    const retry = await charge(invoice.id);
    expect([retry.status, retry.body.status, retry.body.transactions[0].provider_id]).toEqual([200, 'paid', made!.id]);
    expect(intentsOf(invoice.id)).toHaveLength(1);
  }, 60_000);

  it('a workspace that disconnected Stripe: 422 payment_provider_not_connected, nothing charged, chargeable again once connected', async () => {
    const other = await env.connectedClient();
    const customer = (await other.client.post('/v1/customers', { name: 'Payer', currency: 'EUR' })).body;
    await other.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_visa' });
    const invoice = (await other.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 1_000 }] })).body;
    await other.client.delete('/v1/payment-providers/stripe');
    const refused = await other.client.post(`/v1/invoices/${invoice.id}/charge`);
    expect([refused.status, refused.body.code]).toEqual([422, 'payment_provider_not_connected']);
    await other.client.put('/v1/payment-providers/stripe', { secret_key: other.keys.secretKey, publishable_key: other.keys.publishableKey });
    const paid = await other.client.post(`/v1/invoices/${invoice.id}/charge`);
    expect([paid.status, paid.body.status]).toEqual([200, 'paid']);
  });
});
