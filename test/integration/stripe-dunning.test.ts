import { runDueWork } from '../../shared/domain/schedules/run-due';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { stripeSuite } from '../support/stripe/suite';

describeWithStripeFixtures('the automatic collection through Stripe: the whole dunning schedule', () => {
  const s = stripeSuite();
  afterEach(() => s.clock.setOffset(0));
  const run = () => runDueWork(s.clock.now(), { workspaces: new Set([s.client.workspace]) });
  const moveTo = (at: string) => s.clock.setOffset(Date.parse(at) - Date.now());

  it('a declined card: one PaymentIntent per attempt, each declined at Stripe, then the invoice uncollectible', async () => {
    const entity = (await s.client.get('/v1/invoicing-entities')).body.data[0];
    expect((await s.client.put(`/v1/invoicing-entities/${entity.id}`, { dunning_final_action: 'mark_uncollectible' })).status).toBe(200);
    const customer = (await s.client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    expect((await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_chargeDeclined' })).status).toBe(201);
    const issued = (await s.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    expect(issued.dunning).toMatchObject({ status: 'active', attempt: 0, final_action: 'mark_uncollectible' });

    await Promise.all([run(), run()]);
    let current = (await s.client.get(`/v1/invoices/${issued.id}`)).body;
    expect(current).toMatchObject({ status: 'error', dunning: { status: 'active', attempt: 1, last_error_type: 'generic_decline' } });
    while (current.dunning.next_attempt_at) {
      const attempt = current.dunning.attempt;
      await run(); // not yet due: nothing is charged
      expect((await s.client.get(`/v1/invoices/${issued.id}`)).body.dunning.attempt).toBe(attempt);
      moveTo(current.dunning.next_attempt_at);
      await Promise.all([run(), run()]);
      current = (await s.client.get(`/v1/invoices/${issued.id}`)).body;
      expect(current.dunning.attempt).toBe(attempt + 1);
    }
    expect(current).toMatchObject({ status: 'uncollectible', dunning: { status: 'exhausted', attempt: 6, next_attempt_at: null, final_action_status: 'done' } });
    const intents = [...s.keys.account.paymentIntents.values()].filter((pi) => pi.metadata.invoice_id === issued.id);
    expect(intents.map((pi) => pi.status)).toEqual(Array(6).fill('requires_payment_method'));
    expect(new Set(intents.map((pi) => pi.metadata.attempt_id)).size).toBe(6);
    expect(current.transactions.map((t: { status: string; provider_id: string }) => [t.status, t.provider_id])).toEqual(intents.map((pi) => ['failed', pi.id]));
  }, 120_000);
});
