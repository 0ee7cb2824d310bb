import type Stripe from 'stripe';
import { describeWithStripeFixtures } from '../support/stripe/fixtures';
import { stripeSuite } from '../support/stripe/suite';

const WEBHOOK_SECRET = 'whsec_MethodEventsSecret0123456789';

describeWithStripeFixtures('Stripe\'s webhooks about saved methods: payment_method.detached, payment_method.updated and setup_intent.succeeded', () => {
  const s = stripeSuite({ webhookSecret: WEBHOOK_SECRET });

  /** A customer with a saved Stripe card (its default), and the PaymentMethod Stripe holds for it. */
  async function savedCard() {
    const customer = (await s.client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    const saved = await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: 'pm_card_visa' });
    expect(saved.status).toBe(201);
    const atStripe = [...s.keys.account.paymentMethods.values()].at(-1)!;
    return { customer, method: saved.body, atStripe };
  }

  const eventOf = (type: string, method: Stripe.PaymentMethod | Stripe.SetupIntent) => s.env.standIn.signedEvent(type, structuredClone(method), WEBHOOK_SECRET, s.keys.account);
  const deliverThrice = async (delivery: { payload: string; signature: string }, workspace = s.client.workspace) => {
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      const reply = await s.env.api.raw('POST', `/v1/payment-providers/stripe/webhooks/${workspace}`, {
        headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature }, body: delivery.payload,
      });
      expect(reply.status).toBe(200);
      outcomes.push(reply.body.outcome);
    }
    return outcomes;
  };

  it('detached at Stripe: the saved method is deleted once (as DELETE does); a later charge is a 422, nothing charged', async () => {
    const { customer, method, atStripe } = await savedCard();
    const invoice = (await s.client.post('/v1/invoices', { customer_id: customer.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 10_000 }] })).body;
    const before = eventOf('payment_method.updated', atStripe); // an older event, delivered after the detach
    const detached = eventOf('payment_method.detached', s.keys.account.detachPaymentMethod(atStripe.id));
    expect(await deliverThrice(detached)).toEqual(['recorded', 'duplicate', 'duplicate']);
    expect(await deliverThrice(before)).toEqual(['nothing', 'nothing', 'nothing']);

    expect((await s.client.get(`/v1/customers/${customer.id}/payment-methods/${method.id}`)).status).toBe(404);
    const list = (await s.client.get(`/v1/customers/${customer.id}/payment-methods`)).body;
    expect([list.meta.total, list.data]).toEqual([0, []]);
    expect((await s.client.get(`/v1/customers/${customer.id}`)).body).toMatchObject({ current_payment_method_id: null, current_payment_method: null });
    const charged = await s.client.post(`/v1/invoices/${invoice.id}/charge`);
    expect([charged.status, charged.body.code]).toEqual([422, 'payment_method_missing']);
    const named = await s.client.post(`/v1/invoices/${invoice.id}/charge`, { payment_method_id: method.id });
    expect([named.status, named.body.code]).toEqual([422, 'payment_method_not_found']);
    expect([...s.keys.account.paymentIntents.values()].filter((pi) => pi.metadata.invoice_id === invoice.id)).toEqual([]);
  });

  it('updated at Stripe: the card\'s new expiry on the method and the customer\'s summary, once; an older copy changes nothing', async () => {
    const { customer, method, atStripe } = await savedCard();
    const older = eventOf('payment_method.updated', atStripe);
    const renewed = eventOf('payment_method.updated', s.keys.account.renewCard(atStripe.id, { exp_month: 11, exp_year: 2034 }));
    expect(await deliverThrice(renewed)).toEqual(['recorded', 'duplicate', 'duplicate']);
    // Delivered late, the older event is applied from the method as Stripe holds it: the new expiry stays.
    expect(await deliverThrice(older)).toEqual(['nothing', 'nothing', 'nothing']);
    const now = (await s.client.get(`/v1/customers/${customer.id}/payment-methods/${method.id}`)).body;
    expect(now.card).toEqual({ ...method.card, exp_month: 11, exp_year: 2034 });
    expect((await s.client.get(`/v1/customers/${customer.id}`)).body.current_payment_method).toMatchObject({ id: method.id, expiration_date: '2034-11' });
  });

  it('a method another workspace saved, or none of ours, is not touched: nothing', async () => {
    const { method, atStripe } = await savedCard();
    const other = await s.env.connectedClient({ webhookSecret: WEBHOOK_SECRET });
    const detached = s.env.standIn.signedEvent('payment_method.detached', structuredClone(s.keys.account.detachPaymentMethod(atStripe.id)), WEBHOOK_SECRET, other.keys.account);
    expect(await deliverThrice(detached, other.client.workspace)).toEqual(['nothing', 'nothing', 'nothing']);
    expect((await s.client.get(`/v1/customers/${method.customer_id}/payment-methods/${method.id}`)).status).toBe(200);
  });

  it('setup_intent.succeeded: the method it attached saved once (delivered 3 times), not again if the frontend saved it, nor if detached since', async () => {
    const customer = (await s.client.post('/v1/customers', { name: 'Payer', currency: 'EUR', billing_address: { country: 'FR' } })).body;
    const listed = async () => (await s.client.get(`/v1/customers/${customer.id}/payment-methods`)).body.data;
    const setup = async (testMethod: string) => {
      const created = await s.client.post(`/v1/customers/${customer.id}/setup-intents`);
      expect(created.status).toBe(201);
      return s.keys.account.confirmSetupIntent(created.body.id, testMethod);
    };

    const first = await setup('pm_sepaDebit');
    expect(await deliverThrice(eventOf('setup_intent.succeeded', first))).toEqual(['recorded', 'duplicate', 'duplicate']);
    expect(await listed()).toEqual([expect.objectContaining({ provider: 'stripe', type: 'direct_debit', is_default: true, sepa_debit: expect.objectContaining({ last4: '3000' }) })]);

    // Saved by the merchant's frontend first (POST …/payment-methods with its pm_…): the event saves nothing more.
    const second = await setup('pm_card_visa');
    expect((await s.client.post(`/v1/customers/${customer.id}/payment-methods`, { provider: 'stripe', token: second.payment_method })).status).toBe(201);
    expect(await deliverThrice(eventOf('setup_intent.succeeded', second))).toEqual(['nothing', 'nothing', 'nothing']);

    // Detached before the event came: not saved.
    const third = await setup('pm_card_mastercard');
    s.keys.account.detachPaymentMethod(third.payment_method as string);
    expect(await deliverThrice(eventOf('setup_intent.succeeded', third))).toEqual(['nothing', 'nothing', 'nothing']);
    expect(await listed()).toHaveLength(2);
  });
});
