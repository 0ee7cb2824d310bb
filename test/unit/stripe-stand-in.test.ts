import Stripe from 'stripe';
import { stripeApiLocation } from '../../shared/domain/payments/stripe/client';
import { describeWithStripeFixtures, fixture } from '../support/stripe/fixtures';
import { startStripeStandIn, type StandInKeys, type StripeStandIn } from '../support/stripe/server';

/** The official SDK against the stand-in, as the service builds it (STRIPE_API_URL), but without network retries. */
const sdk = (standIn: StripeStandIn, key: string, retries = 0) => new Stripe(key, { ...stripeApiLocation(standIn.url), maxNetworkRetries: retries });

const stripeError = async (call: Promise<unknown>): Promise<Stripe.errors.StripeError> => {
  const error = await call.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(Stripe.errors.StripeError);
  return error as Stripe.errors.StripeError;
};

describe('STRIPE_API_URL', () => {
  it("points the SDK at another host: Stripe's own without it", () => {
    expect(stripeApiLocation(undefined)).toEqual({});
    expect(stripeApiLocation('http://127.0.0.1:12111')).toEqual({ protocol: 'http', host: '127.0.0.1', port: '12111' });
    expect(stripeApiLocation('https://stripe-mock.internal')).toEqual({ protocol: 'https', host: 'stripe-mock.internal', port: 443 });
    expect(() => stripeApiLocation('localhost:12111')).toThrow(/http\(s\)/);
    expect(() => stripeApiLocation('not a url')).toThrow(/not a URL/);
  });
});

describeWithStripeFixtures('the Stripe stand-in, through the official SDK', () => {
  let standIn: StripeStandIn;
  let keys: StandInKeys;
  let stripe: Stripe;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
    keys = standIn.newAccount('test');
    stripe = sdk(standIn, keys.secretKey);
  });
  afterAll(() => standIn.close());

  const customerWith = async (method: string) => {
    const customer = await stripe.customers.create({ name: 'Card holder' });
    return { customer, method: await stripe.paymentMethods.attach(method, { customer: customer.id }) };
  };

  it('answers with objects of Stripe\'s shape (every member of the fixture), the request deciding ids, mode and values', async () => {
    const account = await stripe.accounts.retrieveCurrent();
    expect(account.id).toBe(keys.account.id);
    const live = standIn.newAccount('live');
    expect((await sdk(standIn, live.secretKey).balance.retrieve()).livemode).toBe(true);
    expect((await stripe.balance.retrieve()).livemode).toBe(false);

    const customer = await stripe.customers.create({ name: 'Ada', metadata: { customer_id: 'cus_ours' } });
    expect(Object.keys(customer).sort()).toEqual(Object.keys(fixture('customer')).sort());
    expect(customer).toMatchObject({ object: 'customer', id: expect.stringMatching(/^cus_\w{24}$/), name: 'Ada', metadata: { customer_id: 'cus_ours' }, livemode: false });
    expect(await stripe.customers.retrieve(customer.id)).toEqual(customer);
  });

  it('refuses an unknown key as Stripe does: an authentication error naming the key only by its ends', async () => {
    const error = await stripeError(sdk(standIn, 'sk_test_notAKeyOfThisAccount1234').accounts.retrieveCurrent());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect([error.statusCode, error.message]).toEqual([401, expect.stringMatching(/^Invalid API Key provided: sk_test_\*+1234$/)]);
  });

  it("attaches Stripe's test methods as new methods of the customer: cards with brand, last 4 and expiry, SEPA with bank and last 4", async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    expect(method).toMatchObject({ id: expect.stringMatching(/^pm_\w{24}$/), customer: customer.id, type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: expect.any(Number) } });
    expect(Object.keys(method).sort()).toEqual(Object.keys(fixture('payment_method')).sort());
    expect(await stripe.paymentMethods.retrieve(method.id)).toEqual(method);
    const sepa = await stripe.paymentMethods.attach('pm_sepaDebit', { customer: customer.id });
    expect(sepa).toMatchObject({ type: 'sepa_debit', sepa_debit: { bank_code: '37040044', country: 'DE', last4: '3000' } });
    expect(sepa.card).toBeUndefined();

    const unknown = await stripeError(stripe.paymentMethods.attach('pm_unknown', { customer: customer.id }));
    expect([unknown.statusCode, unknown.code, unknown.type]).toEqual([404, 'resource_missing', 'StripeInvalidRequestError']);
    const noCustomer = await stripeError(stripe.paymentMethods.attach('pm_card_visa', { customer: 'cus_missing' }));
    expect([noCustomer.statusCode, noCustomer.code]).toEqual([404, 'resource_missing']);
  });

  it('creates setup intents with a client secret for the customer', async () => {
    const customer = await stripe.customers.create({});
    const intent = await stripe.setupIntents.create({ customer: customer.id, allowed_payment_method_types: ['card', 'sepa_debit'], usage: 'off_session' });
    expect(intent).toMatchObject({ object: 'setup_intent', customer: customer.id, status: 'requires_payment_method', payment_method_types: ['card', 'sepa_debit'], usage: 'off_session' });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_\\w+$`));
  });

  describe("PaymentIntents behave as Stripe's test methods say", () => {
    const charge = async (testMethod: string, extra: Partial<Stripe.PaymentIntentCreateParams> = {}) => {
      const { customer, method } = await customerWith(testMethod);
      return stripe.paymentIntents.create({ amount: 12_000, currency: 'eur', customer: customer.id, payment_method: method.id, confirm: true, off_session: true, ...extra });
    };

    it('pm_card_visa succeeds: a charge whose balance transaction reports the fee', async () => {
      const intent = await charge('pm_card_visa', { metadata: { invoice_id: 'inv_1' } });
      expect(intent).toMatchObject({ status: 'succeeded', amount: 12_000, amount_received: 12_000, currency: 'eur', metadata: { invoice_id: 'inv_1' }, latest_charge: expect.stringMatching(/^ch_/) });
      expect(Object.keys(intent).sort()).toEqual(Object.keys(fixture('payment_intent')).sort());
      const read = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge.balance_transaction'] });
      const latest = read.latest_charge as Stripe.Charge;
      expect(latest).toMatchObject({ id: intent.latest_charge, status: 'succeeded', payment_intent: intent.id, amount: 12_000 });
      expect((latest.balance_transaction as Stripe.BalanceTransaction).fee).toBe(205);
    });

    it.each([
      ['pm_card_chargeDeclined', 'generic_decline'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ])('%s is declined (%s): a 402 card error carrying the PaymentIntent, back to requires_payment_method', async (testMethod, declineCode) => {
      const error = await stripeError(charge(testMethod));
      expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect([error.statusCode, error.code, error.decline_code]).toEqual([402, 'card_declined', declineCode]);
      expect(error.payment_intent).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined', decline_code: declineCode } });
      expect((await stripe.paymentIntents.retrieve(error.payment_intent!.id)).status).toBe('requires_payment_method');
    });

    it('pm_card_authenticationRequired needs 3-D Secure: requires_action on session, a 402 authentication_required off session', async () => {
      const onSession = await charge('pm_card_authenticationRequired', { off_session: undefined });
      expect(onSession).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      expect(keys.account.completeAuthentication(onSession.id).status).toBe('succeeded');

      const error = await stripeError(charge('pm_card_authenticationRequired'));
      expect([error.statusCode, error.code]).toEqual([402, 'authentication_required']);
      const intent = error.payment_intent!;
      expect(intent.status).toBe('requires_payment_method');
      // The customer confirms it on session (the hosted page): then 3-D Secure, then the charge.
      const confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: intent.payment_method as string });
      expect(confirmed.status).toBe('requires_action');
    });

    it('pm_sepaDebit is processing until Stripe settles it, one way or the other', async () => {
      const intent = await charge('pm_sepaDebit');
      expect(intent.status).toBe('processing');
      keys.account.settleProcessing(intent.id, 'succeeded');
      expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
      const failing = await charge('pm_sepaDebit');
      keys.account.settleProcessing(failing.id, 'failed');
      expect((await stripe.paymentIntents.retrieve(failing.id)).last_payment_error?.decline_code).toBe('insufficient_funds');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the answer to the same key and parameters, and refuses the key with other parameters (400 idempotency_error)', async () => {
      const { customer, method } = await customerWith('pm_card_visa');
      const params = { amount: 500, currency: 'eur', customer: customer.id, payment_method: method.id, confirm: true, off_session: true };
      const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'inv_1-attempt_1' });
      const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'inv_1-attempt_1' });
      expect(again).toEqual(first);
      const other = await stripeError(stripe.paymentIntents.create({ ...params, amount: 600 }, { idempotencyKey: 'inv_1-attempt_1' }));
      expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      expect(other.statusCode).toBe(400);
      expect([...keys.account.paymentIntents.values()].filter((pi) => pi.customer === customer.id)).toHaveLength(1);
      // Keys belong to an account: another account's same key is another request.
      const elsewhere = standIn.newAccount('test');
      const theirs = sdk(standIn, elsewhere.secretKey);
      expect((await theirs.customers.create({}, { idempotencyKey: 'inv_1-attempt_1' })).object).toBe('customer');
    });

    it('50 concurrent requests with one key make one PaymentIntent', async () => {
      const { customer, method } = await customerWith('pm_card_visa');
      const params = { amount: 700, currency: 'eur', customer: customer.id, payment_method: method.id, confirm: true, off_session: true };
      const answers = await Promise.all(Array.from({ length: 50 }, () => stripe.paymentIntents.create(params, { idempotencyKey: `concurrent-${customer.id}` })));
      expect(new Set(answers.map((a) => a.id)).size).toBe(1);
      expect([...keys.account.paymentIntents.values()].filter((pi) => pi.customer === customer.id)).toHaveLength(1);
    });

    it('a connection cut after Stripe accepted: the SDK retries with the same key and gets the first answer', async () => {
      const { customer, method } = await customerWith('pm_card_visa');
      const retrying = sdk(standIn, keys.secretKey, 1);
      standIn.cutAfterProcessing(/^\/v1\/payment_intents$/);
      const intent = await retrying.paymentIntents.create({ amount: 900, currency: 'eur', customer: customer.id, payment_method: method.id, confirm: true, off_session: true }, { idempotencyKey: `cut-${customer.id}` });
      expect(intent.status).toBe('succeeded');
      const seen = standIn.requests.filter((r) => r.idempotencyKey === `cut-${customer.id}`);
      expect(seen.map((r) => r.replayed)).toEqual([false, true]);
      expect([...keys.account.paymentIntents.values()].filter((pi) => pi.customer === customer.id)).toHaveLength(1);
    });
  });

  it('signs webhooks as Stripe does: the SDK verifies them, and refuses a changed body or another secret', async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    const intent = await stripe.paymentIntents.create({ amount: 100, currency: 'eur', customer: customer.id, payment_method: method.id, confirm: true });
    const secret = 'whsec_standin_test_secret';
    const { payload, signature } = standIn.signedEvent('payment_intent.succeeded', intent, secret, keys.account);
    const event = stripe.webhooks.constructEvent(payload, signature, secret, 300);
    expect(event).toMatchObject({ type: 'payment_intent.succeeded', data: { object: { id: intent.id, status: 'succeeded' } }, livemode: false });
    expect(() => stripe.webhooks.constructEvent(payload.replace('succeeded', 'failed'), signature, secret, 300)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(payload, signature, 'whsec_other', 300)).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });
});
