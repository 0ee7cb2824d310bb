import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  creditBalanceListQuery, creditBalanceResource, creditBalancesQuery, creditPath, creditTopupBody, creditTransactionListItem, creditTransactionListQuery,
  creditTransactionResource, creditUsageBody,
} from '../../shared/schemas/credits';

export const creditRoutes: RouteDefinition[] = [
  {
    id: 'listCreditBalances', method: 'GET', path: '/v1/customers/credits', handler: 'functions/credits/list-all-balances.ts',
    scope: 'read', tag: 'Credits', summary: "List a customer's credit balances (Hyperline's route; customer_id required)",
    description: 'Balances are indexed per customer, so `customer_id` is required (a workspace-wide listing would read the whole table); `product_id` narrows to one balance. Otherwise as `GET /v1/customers/{id}/credits` (docs/hyperline.md).',
    request: { query: creditBalancesQuery }, response: { status: 200, schema: listOf(creditBalanceResource), list: true },
    indexes: ['gsi3'],
  },
  {
    id: 'listCustomerCredits', method: 'GET', path: '/v1/customers/{id}/credits', handler: 'functions/credits/list-balances.ts',
    scope: 'read', tag: 'Credits', summary: "List the customer's credit balances, one per credit product",
    request: { path: idPath, query: creditBalanceListQuery }, response: { status: 200, schema: listOf(creditBalanceResource), list: true },
    indexes: ['gsi3'],
  },
  {
    id: 'getCustomerCredit', method: 'GET', path: '/v1/customers/{id}/credits/{productId}', handler: 'functions/credits/get-balance.ts',
    scope: 'read', tag: 'Credits', summary: "Get the customer's credit balance of one credit product",
    request: { path: creditPath }, response: { status: 200, schema: creditBalanceResource },
  },
  {
    id: 'topupCustomerCredits', method: 'POST', path: '/v1/customers/{id}/credits/{productId}/topup', handler: 'functions/credits/topup.ts',
    scope: 'write', tag: 'Credits', summary: 'Top up free credits (with price_id: whole packs of that bundle price)',
    request: { path: creditPath, body: creditTopupBody }, response: { status: 201, schema: creditTransactionResource },
  },
  {
    id: 'createCustomerCreditsUsage', method: 'POST', path: '/v1/customers/{id}/credits/{productId}/usage', handler: 'functions/credits/usage.ts',
    scope: 'write', tag: 'Credits', summary: 'Consume credits, earliest-expiring first (event_id makes it idempotent)',
    request: { path: creditPath, body: creditUsageBody }, response: { status: 201, schema: creditTransactionResource },
  },
  {
    id: 'listCustomerCreditTransactions', method: 'GET', path: '/v1/customers/{id}/credits/{productId}/transactions',
    handler: 'functions/credits/list-transactions.ts', scope: 'read', tag: 'Credits', summary: 'List the credit transactions of a balance, oldest first',
    request: { path: creditPath, query: creditTransactionListQuery }, response: { status: 200, schema: listOf(creditTransactionListItem), list: true },
    indexes: [],
  },
];
