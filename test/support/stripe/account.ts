import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import { fixture } from './fixtures';
import { metadataOf, text, type Form } from './form';
import { TEST_METHODS, paymentMethodObject, type Outcome } from './test-methods';

/** An error answer, in Stripe's shape: `{error: {type, code, message, …}}` with its HTTP status. */
export class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: Stripe.StripeRawError & { type: Stripe.RawErrorType },
  ) {
    super(error.message);
  }
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Stripe-like ids: `<prefix>_` and 24 base62 characters. */
export const stripeId = (prefix: string): string => `${prefix}_${[...randomBytes(24)].map((b) => ALPHABET[b % 62]).join('')}`;

const missing = (what: string, id: string, param?: string) =>
  new StripeFailure(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, ...(param && { param }) });
const invalid = (message: string, param?: string, code = 'parameter_invalid') =>
  new StripeFailure(400, { type: 'invalid_request_error', code, message, ...(param && { param }) });

/**
 * One Stripe account as the stand-in keeps it: the objects its keys created, each starting from Stripe's fixture
 * with the members the requests decided. Test methods behave as shared/stripe/README.md says.
 */
export class StandInAccount {
  readonly customers = new Map<string, Stripe.Customer>();
  readonly paymentMethods = new Map<string, Stripe.PaymentMethod>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly setupIntents = new Map<string, Stripe.SetupIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly balanceTransactions = new Map<string, Stripe.BalanceTransaction>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  readonly refunds = new Map<string, Stripe.Refund>();
  /** How confirming with each attached method ends (from the test method it was made from). */
  private readonly outcomes = new Map<string, Outcome>();

  constructor(
    readonly id: string,
    readonly livemode: boolean,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  account(): Stripe.Account {
    return { ...fixture('account'), id: this.id, charges_enabled: true, payouts_enabled: true, details_submitted: true };
  }

  createCustomer(form: Form): Stripe.Customer {
    const customer: Stripe.Customer = {
      ...fixture('customer'), id: stripeId('cus'), created: this.now(), livemode: this.livemode, currency: null, discount: null,
      name: text(form, 'name') ?? null, email: text(form, 'email') ?? null, description: text(form, 'description') ?? null, metadata: metadataOf(form),
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  customer(id: string): Stripe.Customer {
    const customer = this.customers.get(id);
    if (!customer) throw missing('customer', id, 'id');
    return customer;
  }

  /** A stored method, or a fresh object of a test method (Stripe answers a retrieve of `pm_card_visa` so too). */
  paymentMethod(id: string, param = 'payment_method'): Stripe.PaymentMethod {
    const stored = this.paymentMethods.get(id);
    if (stored) return stored;
    const test = TEST_METHODS[id];
    if (!test) throw missing('PaymentMethod', id, param);
    return paymentMethodObject(id, test, { created: this.now(), livemode: this.livemode });
  }

  /** Attaching a test method makes a new `pm_…` of its behaviour, attached to the customer. */
  attachPaymentMethod(id: string, form: Form): Stripe.PaymentMethod {
    const customerId = text(form, 'customer');
    if (!customerId) throw invalid('Missing required param: customer.', 'customer', 'parameter_missing');
    this.customer(customerId);
    const stored = this.paymentMethods.get(id);
    if (stored) {
      if (stored.customer && stored.customer !== customerId) throw invalid('The payment method you provided has already been attached to a customer.', undefined, 'payment_method_unexpected_state');
      stored.customer = customerId;
      return stored;
    }
    const test = TEST_METHODS[id];
    if (!test) throw missing('PaymentMethod', id, 'payment_method');
    const method: Stripe.PaymentMethod = { ...paymentMethodObject(stripeId('pm'), test, { created: this.now(), livemode: this.livemode }), customer: customerId };
    this.paymentMethods.set(method.id, method);
    this.outcomes.set(method.id, test.outcome);
    return method;
  }

  /**
   * Stripe.js's `createPaymentMethod` from the Payment Element: a new, unattached `pm_…` of the test method the
   * stand-in element was given (`test_method`, a stand-in parameter: the real element sends the card's number).
   */
  createPaymentMethod(form: Form): Stripe.PaymentMethod {
    const name = text(form, 'test_method') ?? '';
    const test = TEST_METHODS[name];
    if (!test) throw invalid(`Your card number is incorrect ('${name}' is no test method the stand-in knows).`, 'card[number]', 'incorrect_number');
    const method = paymentMethodObject(stripeId('pm'), test, { created: this.now(), livemode: this.livemode });
    this.paymentMethods.set(method.id, method);
    this.outcomes.set(method.id, test.outcome);
    return method;
  }

  /** The customer (or the merchant, in Stripe's dashboard) removes the method: it is no one's any more. */
  detachPaymentMethod(id: string): Stripe.PaymentMethod {
    return Object.assign(this.paymentMethod(id), { customer: null });
  }

  /** The card's bank renewed it (Stripe's card updater): its new expiry. */
  renewCard(id: string, expiry: { exp_month: number; exp_year: number }): Stripe.PaymentMethod {
    const method = this.paymentMethod(id);
    Object.assign(method.card!, expiry);
    return method;
  }

  createSetupIntent(form: Form): Stripe.SetupIntent {
    const customer = text(form, 'customer');
    if (customer) this.customer(customer);
    // `allowed_payment_method_types` in this API version (the SDK's), `payment_method_types` in older ones.
    const asked = form.allowed_payment_method_types ?? form.payment_method_types;
    const types = Array.isArray(asked) ? asked.filter((t): t is string => typeof t === 'string') : ['card'];
    const id = stripeId('seti');
    const intent: Stripe.SetupIntent = {
      ...fixture('setup_intent'), id, client_secret: `${id}_secret_${stripeId('s').slice(2)}`, created: this.now(), livemode: this.livemode,
      customer: customer ?? null, metadata: metadataOf(form), payment_method_types: types, usage: text(form, 'usage') ?? 'off_session',
      status: 'requires_payment_method', last_setup_error: null, next_action: null, payment_method_configuration_details: null,
    };
    this.setupIntents.set(id, intent);
    return intent;
  }

  setupIntent(id: string): Stripe.SetupIntent {
    const intent = this.setupIntents.get(id);
    if (!intent) throw missing('setupintent', id, 'intent');
    return intent;
  }

  /** Stripe.js confirmed the SetupIntent with a test method: a new method of its behaviour, attached to its customer. */
  confirmSetupIntent(id: string, testMethod: string): Stripe.SetupIntent {
    const intent = this.setupIntent(id);
    if (intent.status !== 'requires_payment_method') throw invalid(`This SetupIntent's status is ${intent.status}; it cannot be confirmed.`, undefined, 'setup_intent_unexpected_state');
    const method = this.attachPaymentMethod(testMethod, { customer: intent.customer as string });
    return Object.assign(intent, { status: 'succeeded', payment_method: method.id });
  }

  createPaymentIntent(form: Form): Stripe.PaymentIntent {
    const amount = Number(text(form, 'amount'));
    if (!Number.isSafeInteger(amount) || amount < 1) throw invalid('This value must be greater than or equal to 1.', 'amount', 'parameter_invalid_integer');
    const currency = text(form, 'currency')?.toLowerCase();
    if (!currency || !/^[a-z]{3}$/.test(currency)) throw invalid('Missing required param: currency.', 'currency', 'parameter_missing');
    // Stripe's minimum charge in the currencies the tests use (0.50).
    if (['eur', 'usd'].includes(currency) && amount < 50) throw invalid(`Amount must be at least 0.50 ${currency}`, 'amount', 'amount_too_small');
    // Stripe's three-decimal currencies: the last digit must be 0 (docs.stripe.com/currencies).
    if (['bhd', 'jod', 'kwd', 'omr', 'tnd'].includes(currency) && amount % 10 !== 0) throw invalid(`Invalid amount: ${currency} amounts must be divisible by 10.`, 'amount', 'parameter_invalid_integer');
    const customer = text(form, 'customer') ?? null;
    if (customer) this.customer(customer);
    const methodId = text(form, 'payment_method') ?? null;
    if (methodId) this.usableMethod(methodId, customer);
    const id = stripeId('pi');
    const intent: Stripe.PaymentIntent = {
      ...fixture('payment_intent'), id, client_secret: `${id}_secret_${stripeId('s').slice(2)}`, created: this.now(), livemode: this.livemode,
      amount, amount_received: 0, currency, customer, payment_method: methodId, metadata: metadataOf(form),
      status: methodId ? 'requires_confirmation' : 'requires_payment_method', canceled_at: null, last_payment_error: null, latest_charge: null,
      next_action: null, processing: null, transfer_data: null, payment_method_configuration_details: null, shipping: null,
      description: text(form, 'description') ?? null, setup_future_usage: null,
      payment_method_types: methodId ? [this.paymentMethod(methodId).type] : ['card'],
    };
    this.paymentIntents.set(id, intent);
    if (text(form, 'confirm') === 'true') return this.confirm(intent, form);
    return intent;
  }

  paymentIntent(id: string): Stripe.PaymentIntent {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw missing('payment_intent', id, 'intent');
    return intent;
  }

  confirmPaymentIntent(id: string, form: Form): Stripe.PaymentIntent {
    const intent = this.paymentIntent(id);
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error', code: 'payment_intent_unexpected_state',
        message: `This PaymentIntent's status is ${intent.status}; it cannot be confirmed.`, payment_intent: intent,
      });
    }
    return this.confirm(intent, form);
  }

  /** The customer completed 3-D Secure on session (what Stripe.js does): the PaymentIntent is charged. */
  completeAuthentication(id: string): Stripe.PaymentIntent {
    const intent = this.paymentIntent(id);
    if (intent.status !== 'requires_action') throw new Error(`${id} is ${intent.status}, not requires_action`);
    return this.succeed(intent);
  }

  /** A processing (SEPA) PaymentIntent settles, as Stripe says days later. */
  settleProcessing(id: string, result: 'succeeded' | 'failed'): Stripe.PaymentIntent {
    const intent = this.paymentIntent(id);
    if (intent.status !== 'processing') throw new Error(`${id} is ${intent.status}, not processing`);
    const charge = this.charges.get(intent.latest_charge as string)!;
    if (result === 'succeeded') {
      Object.assign(charge, { status: 'succeeded', paid: true, captured: true, amount_captured: charge.amount, balance_transaction: this.feeFor(charge).id });
      return Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, processing: null });
    }
    const error: Stripe.PaymentIntent.LastPaymentError = { type: 'invalid_request_error', code: 'payment_method_provider_decline', decline_code: 'insufficient_funds', message: 'The customer\'s account has insufficient funds to cover this payment.', charge: charge.id };
    Object.assign(charge, { status: 'failed', paid: false, failure_code: 'insufficient_funds', failure_message: error.message });
    return Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error, processing: null });
  }

  /** A refund of a succeeded PaymentIntent's charge: at once for a card, `pending` for a SEPA debit (as Stripe's are). */
  createRefund(form: Form): Stripe.Refund {
    const intentId = text(form, 'payment_intent');
    if (!intentId) throw invalid('Missing required param: payment_intent.', 'payment_intent', 'parameter_missing');
    const intent = this.paymentIntent(intentId);
    const charge = this.charges.get(intent.latest_charge as string);
    if (intent.status !== 'succeeded' || !charge) throw invalid(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable');
    const left = charge.amount - charge.amount_refunded;
    const amount = Number(text(form, 'amount') ?? left);
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > left) {
      throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, 'amount', left === 0 ? 'charge_already_refunded' : 'amount_too_large');
    }
    const sepa = this.paymentMethod(intent.payment_method as string).type === 'sepa_debit';
    const refund: Stripe.Refund = {
      ...fixture('refund'), id: stripeId('re'), amount, currency: charge.currency, charge: charge.id, payment_intent: intent.id, created: this.now(),
      metadata: metadataOf(form), status: sepa ? 'pending' : 'succeeded', balance_transaction: null, failure_reason: undefined,
    };
    Object.assign(charge, { amount_refunded: charge.amount_refunded + amount, refunded: charge.amount_refunded + amount === charge.amount });
    this.refunds.set(refund.id, refund);
    return refund;
  }

  /**
   * Stripe's list of PaymentIntents, newest first, of one customer when `customer` is given, made at or after
   * `created[gte]` when given, a page of `limit` (default 10) after `starting_after`, with `has_more`.
   */
  listPaymentIntents(query: Form): Stripe.ApiList<Stripe.PaymentIntent> {
    const customer = text(query, 'customer');
    const gte = text(query, 'created[gte]'); // a GET's query keys come as written
    const since = gte === undefined ? -Infinity : Number(gte);
    const all = [...this.paymentIntents.values()].filter((i) => (!customer || i.customer === customer) && i.created >= since).reverse();
    const after = text(query, 'starting_after');
    const start = after ? all.findIndex((i) => i.id === after) + 1 : 0;
    const limit = Number(text(query, 'limit') ?? 10);
    return { object: 'list', data: all.slice(start, start + limit), has_more: start + limit < all.length, url: '/v1/payment_intents' };
  }

  /** Stripe's list of refunds, newest first, of one charge or PaymentIntent when named (one page: the tests make few). */
  listRefunds(query: Form): Stripe.ApiList<Stripe.Refund> {
    const charge = text(query, 'charge');
    const intent = text(query, 'payment_intent');
    const data = [...this.refunds.values()].filter((r) => (!charge || r.charge === charge) && (!intent || r.payment_intent === intent)).reverse();
    return { object: 'list', data, has_more: false, url: '/v1/refunds' };
  }

  /** The bank settles a pending (SEPA) refund. */
  settleRefund(id: string, status: 'succeeded' | 'failed'): Stripe.Refund {
    const refund = this.refunds.get(id);
    if (refund?.status !== 'pending') throw new Error(`${id} is not a pending refund`);
    return Object.assign(refund, { status, ...(status === 'failed' && { failure_reason: 'unknown' as const }) });
  }

  /** The customer disputes a succeeded payment with its bank, as `pm_card_createDispute`'s payments are. */
  openDispute(intentId: string): Stripe.Dispute {
    const intent = this.paymentIntent(intentId);
    const charge = this.charges.get(intent.latest_charge as string);
    if (intent.status !== 'succeeded' || !charge) throw new Error(`${intentId} is ${intent.status}: nothing to dispute`);
    charge.disputed = true;
    const dispute: Stripe.Dispute = {
      ...fixture('dispute'), id: stripeId('dp'), amount: charge.amount, currency: charge.currency, charge: charge.id, payment_intent: intent.id,
      created: this.now(), livemode: this.livemode, reason: 'fraudulent', status: 'needs_response', is_charge_refundable: false, metadata: {},
    };
    this.disputes.set(dispute.id, dispute);
    return dispute;
  }

  /** The bank decides the dispute. */
  closeDispute(id: string, status: 'won' | 'lost'): Stripe.Dispute {
    return Object.assign(this.dispute(id), { status });
  }

  dispute(id: string): Stripe.Dispute {
    const dispute = this.disputes.get(id);
    if (!dispute) throw missing('dispute', id, 'dispute');
    return dispute;
  }

  private usableMethod(methodId: string, customer: string | null): Stripe.PaymentMethod {
    const method = this.paymentMethod(methodId);
    if (customer && method.customer !== customer) {
      throw invalid(`The provided PaymentMethod ${methodId} does not belong to the Customer ${customer}.`, 'payment_method', 'payment_method_invalid_parameter');
    }
    return method;
  }

  private confirm(intent: Stripe.PaymentIntent, form: Form): Stripe.PaymentIntent {
    const methodId = text(form, 'payment_method') ?? (intent.payment_method as string | null);
    if (!methodId) throw invalid('You cannot confirm this PaymentIntent because it\'s missing a payment method.', 'payment_method', 'payment_intent_unexpected_state');
    const method = this.usableMethod(methodId, intent.customer as string | null);
    intent.payment_method = method.id;
    intent.payment_method_types = [method.type];
    intent.last_payment_error = null;
    const offSession = text(form, 'off_session') === 'true';
    const outcome: Outcome = this.outcomes.get(method.id) ?? TEST_METHODS[method.id]?.outcome ?? { kind: 'succeed' };
    switch (outcome.kind) {
      case 'succeed':
      case 'dispute':
        return this.succeed(intent);
      case 'process':
        return this.process(intent);
      case 'decline':
        return this.decline(intent, { code: 'card_declined', decline_code: outcome.declineCode, message: outcome.message });
      case 'authenticate':
        if (offSession) {
          return this.decline(intent, { code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' });
        }
        return Object.assign(intent, {
          status: 'requires_action',
          next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${intent.id}` } },
        });
    }
  }

  private newCharge(intent: Stripe.PaymentIntent, status: 'succeeded' | 'pending' | 'failed'): Stripe.Charge {
    const base = fixture('charge');
    const charge: Stripe.Charge = {
      ...base, id: stripeId('ch'), amount: intent.amount, amount_captured: status === 'succeeded' ? intent.amount : 0, amount_refunded: 0,
      currency: intent.currency, customer: intent.customer, payment_intent: intent.id, payment_method: intent.payment_method as string,
      created: this.now(), livemode: this.livemode, metadata: intent.metadata, status, paid: status === 'succeeded', captured: status === 'succeeded',
      balance_transaction: null, refunded: false, refunds: null, failure_code: null, failure_message: null, description: null, disputed: false,
    };
    if (status === 'succeeded') charge.balance_transaction = this.feeFor(charge).id;
    this.charges.set(charge.id, charge);
    intent.latest_charge = charge.id;
    return charge;
  }

  /** Stripe's European card pricing, 1.5 % + 0.25: the fee a balance transaction reports. */
  private feeFor(charge: Stripe.Charge): Stripe.BalanceTransaction {
    const fee = Math.round(charge.amount * 0.015) + 25;
    const transaction: Stripe.BalanceTransaction = {
      ...fixture('balance_transaction'), id: stripeId('txn'), amount: charge.amount, currency: charge.currency, fee, net: charge.amount - fee,
      fee_details: [{ amount: fee, application: null, currency: charge.currency, description: 'Stripe processing fees', type: 'stripe_fee' }],
      source: charge.id, created: this.now(), type: 'charge', status: 'pending',
    };
    this.balanceTransactions.set(transaction.id, transaction);
    return transaction;
  }

  private succeed(intent: Stripe.PaymentIntent): Stripe.PaymentIntent {
    this.newCharge(intent, 'succeeded');
    return Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, next_action: null, processing: null });
  }

  private process(intent: Stripe.PaymentIntent): Stripe.PaymentIntent {
    this.newCharge(intent, 'pending');
    return Object.assign(intent, { status: 'processing', next_action: null });
  }

  /** A decline is a 402 card error carrying the PaymentIntent, now back to `requires_payment_method`. */
  private decline(intent: Stripe.PaymentIntent, reason: { code: string; decline_code: string; message: string }): never {
    const charge = this.newCharge(intent, 'failed');
    Object.assign(charge, { failure_code: reason.code, failure_message: reason.message, outcome: { ...charge.outcome, type: 'issuer_declined', reason: reason.decline_code } });
    const error = { type: 'card_error' as const, ...reason, charge: charge.id, payment_method: this.paymentMethods.get(intent.payment_method as string) };
    Object.assign(intent, { status: 'requires_payment_method', last_payment_error: error, next_action: null });
    throw new StripeFailure(402, { ...error, payment_intent: intent });
  }
}
