import type Stripe from 'stripe';
import { ServiceUnavailable } from '../../../errors';
import { connectedStripe } from '../../payment-providers/connect';
import { ChargeOutcomeUnknown } from '../errors';
import type { ChargeInput, ChargeResult } from '../provider';
import { stripeCustomerOf } from './customers';
import { stripeAmountRefusal } from './amounts';
import { atStripe, isStripeError } from './errors';

/** Stripe's fee for the charge, from its balance transaction (expanded with the PaymentIntent). */
function feeOf(intent: Stripe.PaymentIntent): number | null {
  const charge = intent.latest_charge;
  const transaction = charge && typeof charge === 'object' ? charge.balance_transaction : null;
  return transaction && typeof transaction === 'object' ? transaction.fee : null;
}

/** What a PaymentIntent's state means for the invoice (docs/payments.md, "States"). */
export function outcomeOf(intent: Stripe.PaymentIntent): ChargeResult {
  const providerId = intent.id;
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', providerId, providerFee: feeOf(intent) };
    case 'processing':
      return { status: 'pending', providerId, reason: 'processing', message: 'Stripe is processing the payment (a debit takes days); its webhook settles it.' };
    case 'requires_action':
      return { status: 'pending', providerId, reason: 'authentication_required', message: 'The customer must authenticate the payment (3-D Secure).' };
    default: {
      const error = intent.last_payment_error;
      if (error?.code === 'authentication_required') {
        return { status: 'pending', providerId, reason: 'authentication_required', message: error.message ?? 'The customer must authenticate the payment (3-D Secure).' };
      }
      return { status: 'failed', providerId, errorType: error?.decline_code ?? error?.code ?? intent.status, message: error?.message ?? `The payment is ${intent.status}.` };
    }
  }
}

/**
 * One PaymentIntent per charge attempt, created and confirmed at once for the method's Stripe customer, with the
 * attempt's idempotency key: a retried or crashed attempt gets Stripe's first answer again, never a second charge.
 * A decline is an answer (Stripe's 402 carries the PaymentIntent), not an error; no answer at all is a
 * ChargeOutcomeUnknown, to be retried as the same attempt.
 */
export async function chargeWithStripe(input: ChargeInput): Promise<ChargeResult> {
  if (!input.owner) throw new Error('A Stripe charge needs the workspace and customer it is for.');
  const { ctx, customerId } = input.owner;
  const refusal = stripeAmountRefusal(input.amount, input.currency);
  if (refusal) return { status: 'failed', providerId: '', errorType: 'amount_precision_unsupported', message: refusal };
  const { connection, stripe } = await connectedStripe(ctx);
  if (input.accountId && input.accountId !== connection.account_id) {
    return { status: 'failed', providerId: '', errorType: 'payment_method_unavailable', message: 'The payment method was saved in another Stripe account than the one connected now.' };
  }
  const customer = await stripeCustomerOf(ctx, stripe, connection, customerId);
  const params: Stripe.PaymentIntentCreateParams = {
    amount: input.amount, currency: input.currency.toLowerCase(), customer, payment_method: input.reference, confirm: true,
    off_session: input.offSession ?? true, metadata: { workspace_id: ctx.workspaceId, ...input.metadata }, expand: ['latest_charge.balance_transaction'],
  };
  try {
    const earlier = input.resumedFrom ? await attemptIntent(stripe, customer, input.metadata?.attempt_id, input.resumedFrom) : undefined;
    if (earlier) return outcomeOf(earlier);
    return outcomeOf(await atStripe(() => stripe.paymentIntents.create(params, { idempotencyKey: `charge:${input.idempotencyKey}` })));
  } catch (error) {
    if (isStripeError(error, 'StripeCardError') && error.payment_intent) return outcomeOf(error.payment_intent);
    if (isStripeError(error, 'StripeCardError')) {
      return { status: 'failed', providerId: '', errorType: error.decline_code ?? error.code ?? 'card_declined', message: error.message };
    }
    if (isStripeError(error, 'StripeInvalidRequestError')) {
      // Stripe refuses this charge as asked (an amount under its minimum, a method detached meanwhile): a failed
      // attempt, as a decline is, so the invoice and its collection move on instead of erring.
      return { status: 'failed', providerId: error.payment_intent?.id ?? '', errorType: error.code ?? 'invalid_request', message: error.message };
    }
    if (isStripeError(error, 'StripeIdempotencyError')) {
      // The key was used for another amount: not this attempt's charge. Nothing is charged by this call.
      throw new ChargeOutcomeUnknown(`Stripe holds another request under this attempt's key (${error.message}).`);
    }
    // atStripe turned Stripe unreachable into a 503: the PaymentIntent may exist. The same attempt learns it.
    if (error instanceof ServiceUnavailable) throw new ChargeOutcomeUnknown(error.message);
    throw error;
  }
}

/**
 * The PaymentIntent a resumed attempt already made, found by its `attempt_id` metadata among the customer's: what
 * keeps a retry made after Stripe forgot the attempt's idempotency key (24 hours) from charging a second time.
 * Retrieved again for its fee (a list does not expand that deep).
 */
async function attemptIntent(stripe: Stripe, customer: string, attemptId: string | undefined, since: string): Promise<Stripe.PaymentIntent | undefined> {
  if (!attemptId) return undefined;
  const created = { gte: Math.floor(Date.parse(since) / 1000) - CLOCK_SKEW_S };
  const made = await atStripe(async () => {
    // Every page (the SDK's auto-pagination) of what the customer was charged since: however many, never a guess.
    for await (const intent of stripe.paymentIntents.list({ customer, created, limit: 100 })) {
      if (intent.metadata?.attempt_id === attemptId) return intent;
    }
    return undefined;
  });
  return made && retrieveIntent(stripe, made.id);
}

/** Our clock and Stripe's may differ by this much: the search for an attempt's PaymentIntent starts that much earlier. */
const CLOCK_SKEW_S = 300;

/** The PaymentIntent as Stripe holds it now, with its charge's balance transaction (the fee). */
export const retrieveIntent = (stripe: Stripe, intentId: string): Promise<Stripe.PaymentIntent> =>
  atStripe(() => stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge.balance_transaction'] }));
