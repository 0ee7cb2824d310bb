import { exactListMeta, listOf, type RouteDefinition } from '../route-definition';
import { providerConnectionResource, stripeConnectionBody } from '../../shared/schemas/payment-providers';

/** Payment providers (docs/payments.md): a workspace connects its own Stripe account; every route needs `admin`. */
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
];
