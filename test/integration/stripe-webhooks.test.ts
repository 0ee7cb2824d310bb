import Stripe from 'stripe';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import type { Client } from '../support/api';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { stripeSuite } from '../support/stripe/suite';

const WEBHOOK_SECRET = 'whsec_WebhookTestSecret0123456789';
const HOUR = 60 * 60 * 1000;

describeWithStripeFixtures('Stripe\'s webhooks (POST /v1/payment-providers/stripe/webhooks/{workspace_id}) and the sync', () => {
  const s = stripeSuite({ events: true, webhookSecret: WEBHOOK_SECRET });

  /** A to_pay invoice of 120.00 EUR charged to a saved Stripe method: its reply and its PaymentIntent. */
  async function chargedWith(testMethod: string, on: Client = s.client, account = s.keys.account) {
    const customer = (await on.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    expect((await on.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: testMethod })).status).toBe(201);
    const invoice = (await on.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    const charged = await on.post(`/v1/invoices/${invoice.id}/charge`);
    expect(charged.status).toBe(200);
    const intent = [...account.paymentIntents.values()].find((pi) => pi.metadata.invoice_id === invoice.id)!;
    return { invoice: charged.body, intent };
  }

  /** Stripe's delivery of `type` with the PaymentIntent as it is now (a snapshot: later deliveries may carry it older). */
  const eventOf = (type: string, intent: Stripe.PaymentIntent, secret = WEBHOOK_SECRET) => s.env.standIn.signedEvent(type, structuredClone(intent), secret, s.keys.account);
  const deliver = (delivery: { payload: string; signature: string }, workspace = s.client.workspace) =>
    s.env.api.raw('POST', `/v1/payment-providers/stripe/webhooks/${workspace}`, {
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': delivery.signature }, body: delivery.payload,
    });
  const invoiceNow = async (id: string, on: Client = s.client) => (await on.get(`/v1/invoices/${id}`)).body;

  it('SEPA processing, then succeeded: each event applied once when delivered 3 times, an older one after it changes nothing', async () => {
    const { invoice, intent } = await chargedWith('pm_sepaDebit');
    expect(invoice.transactions).toEqual([expect.objectContaining({ status: 'pending', error_type: 'processing' })]);
    const processing = eventOf('payment_intent.processing', intent);
    for (let i = 0; i < 3; i++) expect((await deliver(processing)).body).toMatchObject({ received: true, id: processing.event.id, outcome: 'still_pending' });
    expect(await invoiceNow(invoice.id)).toMatchObject({ status: 'to_pay', amount_paid: 0, transactions: [expect.objectContaining({ status: 'pending' })] });

    const succeeded = eventOf('payment_intent.succeeded', s.keys.account.settleProcessing(intent.id, 'succeeded'));
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await deliver(succeeded)).body.outcome);
    outcomes.push((await deliver(processing)).body.outcome); // the older event, redelivered late
    expect(outcomes).toEqual(['settled', 'duplicate', 'duplicate', 'nothing']);
    const paid = await invoiceNow(invoice.id);
    expect([paid.status, paid.amount_paid, paid.amount_due]).toEqual(['paid', 12_000, 0]);
    expect(paid.transactions).toEqual([
      expect.objectContaining({ id: invoice.transactions[0].id, status: 'succeeded', provider_id: intent.id, provider_fee: Math.round(12_000 * 0.015) + 25, error_type: null }),
    ]);
  });

  it('SEPA processing, then failed: the transaction failed with the decline code, the invoice in error, applied once', async () => {
    const { invoice, intent } = await chargedWith('pm_sepaDebit');
    const failed = eventOf('payment_intent.payment_failed', s.keys.account.settleProcessing(intent.id, 'failed'));
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await deliver(failed)).body.outcome);
    expect(outcomes).toEqual(['settled', 'duplicate', 'duplicate']);
    const after = await invoiceNow(invoice.id);
    expect([after.status, after.amount_paid, after.amount_due]).toEqual(['error', 0, 12_000]);
    expect(after.transactions).toEqual([expect.objectContaining({ status: 'failed', provider_id: intent.id, error_type: 'insufficient_funds', provider_fee: null })]);
    // No longer pending: the invoice can be charged again.
    expect((await s.client.post(`/v1/invoices/${invoice.id}/charge`)).status).toBe(200);
  });

  it('out of order: an event is applied from the PaymentIntent as Stripe holds it, never from its older copy', async () => {
    const { invoice, intent } = await chargedWith('pm_sepaDebit');
    const late = eventOf('payment_intent.processing', intent); // sent while processing, delivered after the debit succeeded
    const succeeded = eventOf('payment_intent.succeeded', s.keys.account.settleProcessing(intent.id, 'succeeded'));
    expect((await deliver(late)).body.outcome).toBe('settled');
    expect((await deliver(succeeded)).body.outcome).toBe('nothing');
    expect((await deliver(late)).body.outcome).toBe('duplicate');
    const paid = await invoiceNow(invoice.id);
    expect([paid.status, paid.amount_paid, paid.transactions.length, paid.transactions[0].status]).toEqual(['paid', 12_000, 1, 'succeeded']);
  });

  it('the automatic collection: a debit pending until Stripe says; failed, the dunning goes on to its next retry; succeeded, it is over', async () => {
    const collected = async () => {
      const customer = (await s.client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
      await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_sepaDebit' });
      const invoice = (await s.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
      expect(invoice.dunning).toMatchObject({ status: 'active', attempt: 0 });
      await runDueWork(s.clock.now(), { workspaces: new Set([s.client.workspace]) });
      const pending = await invoiceNow(invoice.id);
      expect(pending).toMatchObject({ status: 'to_pay', dunning: { status: 'active', attempt: 0 }, transactions: [expect.objectContaining({ status: 'pending' })] });
      const intent = [...s.keys.account.paymentIntents.values()].find((pi) => pi.metadata.invoice_id === invoice.id)!;
      // Runs meanwhile charge nothing more: the debit is pending.
      await runDueWork(s.clock.now(), { workspaces: new Set([s.client.workspace]) });
      expect([...s.keys.account.paymentIntents.values()].filter((pi) => pi.metadata.invoice_id === invoice.id)).toHaveLength(1);
      return { invoice, intent };
    };
    const failing = await collected();
    expect((await deliver(eventOf('payment_intent.payment_failed', s.keys.account.settleProcessing(failing.intent.id, 'failed')))).body.outcome).toBe('settled');
    const retried = await invoiceNow(failing.invoice.id);
    expect(retried).toMatchObject({ status: 'error', dunning: { status: 'active', attempt: 1, last_error_type: 'insufficient_funds' } });
    expect(Date.parse(retried.dunning.next_attempt_at)).toBeGreaterThan(s.clock.now().getTime());

    const paying = await collected();
    expect((await deliver(eventOf('payment_intent.succeeded', s.keys.account.settleProcessing(paying.intent.id, 'succeeded')))).body.outcome).toBe('settled');
    expect(await invoiceNow(paying.invoice.id)).toMatchObject({ status: 'paid', dunning: { status: 'succeeded', attempt: 1, next_attempt_at: null } });
  });

  it('a dispute: kept as the payment\'s chargeback from the dispute as Stripe holds it, invoice.payment_disputed once, each event applied once', async () => {
    const { invoice, intent } = await chargedWith('pm_card_chargeDisputed');
    expect(invoice.status).toBe('paid');
    const dispute = s.keys.account.openDispute(intent.id);
    const created = eventOf('charge.dispute.created', structuredClone(dispute) as never);
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await deliver(created)).body.outcome);
    expect(outcomes).toEqual(['recorded', 'duplicate', 'duplicate']);
    const opened = { provider_id: dispute.id, status: 'needs_response', reason: 'fraudulent', amount: 12_000, currency: 'EUR', opened_at: expect.any(String) };
    expect((await invoiceNow(invoice.id)).transactions).toEqual([expect.objectContaining({ status: 'succeeded', chargeback: opened })]);

    const closed = eventOf('charge.dispute.closed', structuredClone(s.keys.account.closeDispute(dispute.id, 'lost')) as never);
    expect((await deliver(closed)).body.outcome).toBe('recorded');
    // A `created` event sent again late: the dispute is read from Stripe, so it stays lost.
    expect((await deliver(eventOf('charge.dispute.created', structuredClone(dispute) as never))).body.outcome).toBe('nothing');
    const after = await invoiceNow(invoice.id);
    expect([after.status, after.amount_paid, after.transactions[0].chargeback.status]).toEqual(['paid', 12_000, 'lost']);

    await s.env.api.events.settle();
    const messages = (await s.client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string } } }>;
    expect(messages.filter((m) => m.payload.data.id === invoice.id && m.payload.event_type === 'invoice.payment_disputed')).toHaveLength(1);
  });

  it('3-D Secure required off session: invoice.payment_action_required once, with the hosted page link; Stripe\'s events change nothing more', async () => {
    const { invoice, intent } = await chargedWith('pm_card_authenticationRequired');
    expect(invoice.transactions).toEqual([expect.objectContaining({ status: 'pending', error_type: 'authentication_required' })]);
    const requiresAction = eventOf('payment_intent.requires_action', intent);
    for (let i = 0; i < 3; i++) expect((await deliver(requiresAction)).body.outcome).toMatch(/^(still_pending|duplicate)$/);
    await s.env.api.events.settle();
    const messages = (await s.client.get('/v1/webhooks/messages?limit=250')).body.data as Array<{ payload: { event_type: string; data: { id: string; public_url: string } } }>;
    const actions = messages.filter((m) => m.payload.data.id === invoice.id && m.payload.event_type === 'invoice.payment_action_required');
    expect(actions).toHaveLength(1);
    expect(actions[0]!.payload.data.public_url).toBe(invoice.public_url);
  });

  it('an event for a charge still being recorded is a 409 (Stripe sends it again), applied once the charge is recorded', async () => {
    const customer = (await s.client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_sepaDebit' });
    const invoice = (await s.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    s.env.standIn.cutAfterProcessing(/^\/v1\/payment_intents$/, 2); // Stripe made the PaymentIntent, we never heard
    expect((await s.client.post(`/v1/invoices/${invoice.id}/charge`)).status).toBe(503);
    const intent = [...s.keys.account.paymentIntents.values()].find((pi) => pi.metadata.invoice_id === invoice.id)!;
    const processing = eventOf('payment_intent.processing', structuredClone(intent));
    const early = await deliver(processing);
    expect([early.status, early.body.code]).toEqual([409, 'charge_in_progress']);
    expect((await invoiceNow(invoice.id)).transactions).toEqual([]);
    // The same attempt again: it finds the PaymentIntent it made (processing), now recorded as pending.
    const charged = await s.client.post(`/v1/invoices/${invoice.id}/charge`);
    expect([charged.body.status, charged.body.transactions[0].status]).toEqual(['to_pay', 'pending']);
    expect((await deliver(processing)).status).toBe(200); // Stripe's redelivery, now recorded
    const succeeded = eventOf('payment_intent.succeeded', s.keys.account.settleProcessing(intent.id, 'succeeded'));
    expect((await deliver(succeeded)).body.outcome).toBe('settled');
    expect(await invoiceNow(invoice.id)).toMatchObject({ status: 'paid', amount_paid: 12_000 });
    expect([...s.keys.account.paymentIntents.values()].filter((pi) => pi.metadata.invoice_id === invoice.id)).toHaveLength(1);
  });

  it('refuses a bad signature, a tampered or stale body, an unknown workspace and one without a webhook secret alike: 400, nothing changed', async () => {
    const { invoice, intent } = await chargedWith('pm_sepaDebit');
    const settled = s.keys.account.settleProcessing(intent.id, 'succeeded');
    const good = eventOf('payment_intent.succeeded', settled);
    const signer = new Stripe('sk_test_signer');
    const stale = { payload: good.payload, signature: signer.webhooks.generateTestHeaderString({ payload: good.payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 301 }) };
    const unconfigured = await s.env.connectedClient();
    const refusals = await Promise.all([
      deliver(eventOf('payment_intent.succeeded', settled, 'whsec_AnotherSecret0123456789')),
      deliver({ payload: good.payload.replace('"succeeded"', '"canceled"'), signature: good.signature }),
      deliver({ payload: good.payload, signature: '' }),
      deliver(stale),
      deliver(good, 'ws_unknownworkspace00'),
      deliver(good, unconfigured.client.workspace),
    ]);
    expect(refusals.map((r) => `${r.status} ${r.body.code}`)).toEqual(Array(6).fill('400 stripe_signature_invalid'));
    expect(new Set(refusals.map((r) => r.body.message)).size).toBe(1); // one answer: whether a workspace exists is not told
    expect(await invoiceNow(invoice.id)).toMatchObject({ status: 'to_pay', transactions: [expect.objectContaining({ status: 'pending' })] });
    expect((await deliver(good)).body.outcome).toBe('settled');
  });

  it('a lost webhook is repaired: by the sync once the charge is pending for more than an hour, and by the scheduled check', async () => {
    const { client: other, keys: otherKeys } = await s.env.connectedClient({ webhookSecret: WEBHOOK_SECRET });
    const first = await chargedWith('pm_sepaDebit', other, otherKeys.account);
    const second = await chargedWith('pm_sepaDebit', other, otherKeys.account);
    otherKeys.account.settleProcessing(first.intent.id, 'succeeded'); // its webhook never comes
    otherKeys.account.settleProcessing(second.intent.id, 'failed');
    const early = await other.post('/v1/payment-providers/stripe/sync');
    expect([early.status, early.body]).toEqual([200, { checked: 0, settled: 0, still_pending: 0, more: false }]);

    s.clock.setOffset(HOUR + 60_000);
    const synced = await other.post('/v1/payment-providers/stripe/sync');
    expect([synced.status, synced.body]).toEqual([200, { checked: 2, settled: 2, still_pending: 0, more: false }]);
    expect((await invoiceNow(first.invoice.id, other)).status).toBe('paid');
    expect((await invoiceNow(second.invoice.id, other)).transactions[0]).toMatchObject({ status: 'failed', error_type: 'insufficient_funds' });
    expect((await other.post('/v1/payment-providers/stripe/sync')).body.checked).toBe(0); // their checks ended

    // The scheduled check: an hour after going pending, Stripe is asked; still processing, again a day later.
    s.clock.setOffset(0);
    const third = await chargedWith('pm_sepaDebit', other, otherKeys.account);
    s.clock.setOffset(HOUR + 60_000);
    await runDueWork(s.clock.now(), { workspaces: new Set([other.workspace]) });
    expect((await invoiceNow(third.invoice.id, other)).transactions[0].status).toBe('pending');
    otherKeys.account.settleProcessing(third.intent.id, 'succeeded');
    s.clock.setOffset(HOUR + 25 * HOUR);
    await runDueWork(s.clock.now(), { workspaces: new Set([other.workspace]) });
    expect((await invoiceNow(third.invoice.id, other)).status).toBe('paid');
    s.clock.setOffset(0);
  });
});
