import { exactListMeta, listOf, type RouteDefinition } from '../route-definition';
import { providerConnectionResource, stripeConnectionBody, stripeEventReceipt, stripeSyncResult, stripeWebhookPath } from '../../shared/schemas/payment-providers';

/**
 * Payment providers (docs/payments.md): a workspace connects its own Stripe account; every route needs `admin` but
 * Stripe's webhook endpoint, public: Stripe's signature is its credential.
 */
export const paymentProviderRoutes: RouteDefinition[] = [
  {
    id: 'connectStripe', method: 'PUT', path: '/v1/payment-providers/stripe', handler: 'functions/payment-providers/connect-stripe.ts',
    scope: 'admin', tag: 'Payment providers', summary: 'Connect the workspace to its Stripe account (or replace its keys)',
    description: 'Checks the secret key with one call to Stripe (a key Stripe refuses is a 422 `provider_key_invalid`), requires keys of the workspace\'s mode (`sk_live_…` workspaces take live keys, others test keys: else 422 `provider_livemode_mismatch`), stores the secrets encrypted and never returns them.',
    request: { body: stripeConnectionBody }, response: { status: 200, schema: providerConnectionResource },
  },
  {
    id: 'listPaymentProviders', method: 'GET', path: '/v1/payment-providers', handler: 'functions/payment-providers/list.ts',
    scope: 'admin', tag: 'Payment providers', summary: 'The payment providers the workspace is connected to',
    request: {}, response: { status: 200, schema: listOf(providerConnectionResource, exactListMeta) },
  },
  {
    id: 'disconnectStripe', method: 'DELETE', path: '/v1/payment-providers/stripe', handler: 'functions/payment-providers/disconnect-stripe.ts',
    scope: 'admin', tag: 'Payment providers', summary: 'Disconnect Stripe: its keys are forgotten',
    description: 'Saving or charging a Stripe payment method is then a 422 `payment_provider_not_connected` until the workspace connects again. A second disconnect is a 404.',
    request: {}, response: { status: 200, schema: providerConnectionResource },
  },
  {
    id: 'stripeWebhook', method: 'POST', path: '/v1/payment-providers/stripe/webhooks/{workspace_id}', handler: 'functions/payment-providers/stripe-webhook.ts',
    scope: 'public', tag: 'Payment providers', summary: 'Stripe\'s events for the workspace (the `webhook_url` to register in Stripe\'s dashboard)',
    description: 'Public: the `Stripe-Signature` header, checked with the workspace\'s webhook signing secret (tolerance 5 minutes) on the body as sent, is the credential; a signature that does not verify, or a workspace unknown or without a webhook secret, is a 400 `stripe_signature_invalid` that changes nothing. Applies `payment_intent.succeeded`, `payment_intent.payment_failed`, `payment_intent.processing`, `payment_intent.requires_action` and `charge.dispute.created`/`updated`/`closed` once each, from the PaymentIntent (or dispute) as Stripe holds it; a redelivery is a 200 that changes nothing. A 409 `charge_in_progress` (the charge is still being recorded) asks Stripe to send it again later.',
    request: { path: stripeWebhookPath }, response: { status: 200, schema: stripeEventReceipt },
  },
  {
    id: 'syncStripe', method: 'POST', path: '/v1/payment-providers/stripe/sync', handler: 'functions/payment-providers/sync-stripe.ts',
    scope: 'admin', tag: 'Payment providers', summary: 'Reconcile with Stripe: settle the charges pending for more than an hour from what Stripe says',
    description: 'Retrieves the PaymentIntent of every invoice whose charge has been pending for more than an hour (up to 100 per call: `more` says to call again) and applies what Stripe says, as its webhook would have; a credit note whose Stripe refund is still pending is asked again under its idempotency key. The same check runs on its own an hour after a charge goes pending, then daily.',
    // The workspace's due checks, from its list of pending checks by due time (a Query, not a scan).
    indexes: ['gsi1'],
    request: {}, response: { status: 200, schema: stripeSyncResult },
  },
];
