import type Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { getItem } from '../../../db/items';
import { entityKey } from '../../../db/keys';
import { InvalidRequest } from '../../../errors';
import type { PendingOutcome } from '../../invoices/settle-pending';
import { connectionKey, type ProviderConnectionItem } from '../../payment-providers/connection';
import { openSecret } from '../../payment-providers/secret-box';
import { stripeClient } from './client';
import { applyDispute } from './disputes';
import { isStripeError } from './errors';
import { applyPaymentIntent } from './intents';
import { applyPaymentMethod } from './method-events';
import { applyRefundsOfCharge } from './refunds';
import { applySetupIntent } from './setup-events';

/** Stripe's own default: a signature older than 5 minutes is refused (a replayed delivery). */
export const WEBHOOK_TOLERANCE_S = 300;
/** An applied event is remembered this long; Stripe stops redelivering after 3 days. */
const EVENT_KEPT_S = 30 * 24 * 60 * 60;

/** The events the service applies (docs/payments.md, "Webhooks": the ones to select in Stripe's dashboard). */
export const STRIPE_EVENTS = [
  'payment_intent.succeeded', 'payment_intent.payment_failed', 'payment_intent.processing', 'payment_intent.requires_action',
  'charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed', 'payment_method.detached', 'payment_method.updated',
  'charge.refunded', 'setup_intent.succeeded',
] as const;

export interface StripeEventReceipt {
  received: true;
  id: string;
  type: string;
  /**
   * What it did: `settled` an invoice's pending charge (or a credit note's pending refund), found it `still_pending`,
   * `recorded` a dispute or a saved method's change, `nothing` to do, a `duplicate`, or `ignored` (a type not applied).
   */
  outcome: PendingOutcome | 'recorded' | 'ignored';
}

/**
 * Refused alike whether the workspace is unknown, has no webhook secret or the signature is wrong: the answer never
 * says whether a workspace exists.
 */
const refused = () =>
  new InvalidRequest('The Stripe-Signature header does not verify against this endpoint\'s signing secret (or is older than 5 minutes).', undefined, 'stripe_signature_invalid');

const eventKey = (ctx: Ctx, eventId: string) => entityKey(ctx, 'SEVT', eventId);

/**
 * `POST /v1/payment-providers/stripe/webhooks/{workspace_id}`: an event of the workspace's Stripe account, verified
 * with the SDK against the workspace's webhook signing secret on the body exactly as received, then applied once.
 */
export async function receiveStripeEvent(ctx: Ctx, payload: string, signature: string | undefined): Promise<StripeEventReceipt> {
  const connection = await getItem<ProviderConnectionItem>(connectionKey(ctx, 'stripe'), true);
  if (!connection?.webhook_secret || !signature) throw refused();
  const [secret, secretKey] = await Promise.all([openSecret(ctx.workspaceId, connection.webhook_secret), openSecret(ctx.workspaceId, connection.secret_key)]);
  const stripe = await stripeClient(secretKey);
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, signature, secret, WEBHOOK_TOLERANCE_S);
  } catch (error) {
    if (isStripeError(error, 'StripeSignatureVerificationError') || error instanceof SyntaxError) throw refused();
    throw error;
  }
  const receipt = { received: true as const, id: event.id, type: event.type };
  // An event of the other mode (a test event sent to a live workspace's endpoint) is not this account's money.
  if (event.livemode !== connection.livemode) return { ...receipt, outcome: 'ignored' };
  const applied = { key: eventKey(ctx, event.id), ttl: Math.floor(ctx.clock.now().getTime() / 1000) + EVENT_KEPT_S };
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.processing':
    case 'payment_intent.requires_action':
      return { ...receipt, outcome: await applyPaymentIntent(ctx, stripe, event.data.object, applied) };
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      return { ...receipt, outcome: await applyDispute(ctx, stripe, event.data.object, applied) };
    case 'setup_intent.succeeded':
      return { ...receipt, outcome: await applySetupIntent(ctx, stripe, event.data.object, connection.account_id, applied) };
    case 'charge.refunded':
      return { ...receipt, outcome: await applyRefundsOfCharge(ctx, stripe, event.data.object.id, applied) };
    case 'refund.updated':
    case 'refund.failed': {
      const { charge } = event.data.object;
      return { ...receipt, outcome: await applyRefundsOfCharge(ctx, stripe, typeof charge === 'string' ? charge : charge?.id ?? null, applied) };
    }
    case 'payment_method.detached':
    case 'payment_method.updated':
      return { ...receipt, outcome: await applyPaymentMethod(ctx, stripe, event.data.object, applied) };
    default:
      return { ...receipt, outcome: 'ignored' };
  }
}
