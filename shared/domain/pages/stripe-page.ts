import type { Ctx } from '../../context';
import { ServiceUnavailable } from '../../errors';
import { getItem } from '../../db/items';
import type { InvoiceItem } from '../invoices/invoice';
import { settlePendingCharge, type PendingOutcome } from '../invoices/settle-pending';
import { connectionKey, type ProviderConnectionItem } from '../payment-providers/connection';
import { connectedStripe } from '../payment-providers/connect';
import { createSetupIntent } from '../payment-methods/setup-intents';
import { outcomeOf, retrieveIntent } from '../payments/stripe/charge';

/*
 * The hosted pages with Stripe connected (docs/payments.md, "The hosted pages with Stripe"): the Payment Element
 * collects the card in the browser, the server charges, saves and settles, always from what Stripe itself says.
 */

/** The workspace's Stripe, as a page needs it (its publishable key), or null: the page shows the sandbox form. */
export async function pageStripe(ctx: Ctx): Promise<{ publishableKey: string } | null> {
  const connection = await getItem<ProviderConnectionItem>(connectionKey(ctx, 'stripe'), true);
  return connection ? { publishableKey: connection.publishable_key } : null;
}

/**
 * A charge waiting for the customer's authentication (3-D Secure), as the page completes it: the PaymentIntent's
 * client secret, and its method when the intent must be confirmed again on session (an off-session charge Stripe
 * declined with `authentication_required` is back in `requires_payment_method`; an on-session one is in
 * `requires_action`, whose next action Stripe.js runs).
 */
export interface PendingAuthentication {
  clientSecret: string;
  paymentMethod: string | null;
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (value && typeof value === 'object' ? value.id : (value ?? null));

/**
 * The authentication the invoice's pending charge awaits, as Stripe holds its PaymentIntent now; null when it awaits
 * none any more (Stripe settled it, its webhook or the page's return will record that) or Stripe is not connected.
 */
export async function pendingAuthentication(ctx: Ctx, item: InvoiceItem): Promise<PendingAuthentication | null> {
  const pending = item.pending_charge;
  if (pending?.reason !== 'authentication_required' || !(await pageStripe(ctx))) return null;
  const { stripe } = await connectedStripe(ctx);
  // Stripe out of reach: the page still opens, saying a payment is under way, and the button comes back on a reload.
  const intent = await retrieveIntent(stripe, pending.provider_id).catch((error: unknown) => {
    if (error instanceof ServiceUnavailable) return undefined;
    throw error;
  });
  if (!intent?.client_secret) return null;
  if (intent.status === 'requires_action') return { clientSecret: intent.client_secret, paymentMethod: null };
  const error = intent.last_payment_error;
  if (intent.status === 'requires_payment_method' && error?.code === 'authentication_required') {
    return { clientSecret: intent.client_secret, paymentMethod: idOf(error.payment_method) ?? idOf(intent.payment_method) };
  }
  return null;
}

/**
 * The page's return from Stripe (after 3-D Secure, or Stripe's redirect): the invoice's pending charge settled from
 * its PaymentIntent as Stripe holds it now, by the webhook's own path, so whichever comes first applies it, once.
 * Nothing the browser sent is taken into account.
 */
export async function settleOnReturn(ctx: Ctx, item: InvoiceItem): Promise<PendingOutcome> {
  const providerId = item.pending_charge?.provider_id;
  if (!providerId || !(await pageStripe(ctx))) return 'nothing';
  const { stripe } = await connectedStripe(ctx);
  return settlePendingCharge(ctx, item.id, providerId, async () => outcomeOf(await retrieveIntent(stripe, providerId)));
}

/**
 * The portal's "add a card" with Stripe: a SetupIntent for the customer (off session, as POST
 * /v1/customers/{id}/setup-intents makes), confirmed by the Payment Element; null without Stripe. One per portal
 * view: an unused SetupIntent costs nothing and is never charged.
 */
export async function portalSetupIntent(ctx: Ctx, customerId: string): Promise<{ publishableKey: string; clientSecret: string } | null> {
  if (!(await pageStripe(ctx))) return null;
  const intent = await createSetupIntent(ctx, customerId);
  return { publishableKey: intent.publishable_key, clientSecret: intent.client_secret };
}
