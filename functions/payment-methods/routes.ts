import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { paymentMethodCreateBody, paymentMethodListQuery, paymentMethodPath, paymentMethodResource, setupIntentResource } from '../../shared/schemas/payment-methods';

export const paymentMethodRoutes: RouteDefinition[] = [
  {
    id: 'createPaymentMethod', method: 'POST', path: '/v1/customers/{id}/payment-methods', handler: 'functions/payment-methods/create.ts',
    scope: 'write', tag: 'Payment methods', summary: "Save a card or a SEPA Direct Debit for the customer from a provider token (locks the customer's currency)",
    request: { path: idPath, body: paymentMethodCreateBody }, response: { status: 201, schema: paymentMethodResource },
  },
  {
    id: 'listPaymentMethods', method: 'GET', path: '/v1/customers/{id}/payment-methods', handler: 'functions/payment-methods/list.ts',
    scope: 'read', tag: 'Payment methods', summary: "List the customer's payment methods, newest first",
    request: { path: idPath, query: paymentMethodListQuery }, response: { status: 200, schema: listOf(paymentMethodResource), list: true },
    indexes: ['gsi3'],
  },
  {
    id: 'getPaymentMethod', method: 'GET', path: '/v1/customers/{id}/payment-methods/{pmId}', handler: 'functions/payment-methods/get.ts',
    scope: 'read', tag: 'Payment methods', summary: 'Get a payment method of the customer',
    request: { path: paymentMethodPath }, response: { status: 200, schema: paymentMethodResource },
  },
  {
    id: 'deletePaymentMethod', method: 'DELETE', path: '/v1/customers/{id}/payment-methods/{pmId}', handler: 'functions/payment-methods/delete.ts',
    scope: 'write', tag: 'Payment methods', summary: 'Delete a payment method (soft); deleting the default leaves the customer without one',
    request: { path: paymentMethodPath }, response: { status: 200, schema: paymentMethodResource },
  },
  {
    id: 'createSetupIntent', method: 'POST', path: '/v1/customers/{id}/setup-intents', handler: 'functions/payment-methods/create-setup-intent.ts',
    scope: 'write', tag: 'Payment methods', summary: 'Start saving a payment method with Stripe.js: a Stripe SetupIntent for the customer',
    description: 'For a merchant\'s own frontend: confirm the SetupIntent with Stripe.js (`client_secret`, `publishable_key`), then save the PaymentMethod it produced with `POST /v1/customers/{id}/payment-methods` (`provider: stripe`). 422 `payment_provider_not_connected` when the workspace has not connected Stripe.',
    request: { path: idPath }, response: { status: 201, schema: setupIntentResource },
  },
];
