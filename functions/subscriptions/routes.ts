import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { subscriptionCancelBody, subscriptionListQuery, subscriptionResource } from '../../shared/schemas/subscriptions';

/** Subscriptions are created and changed by signing quotes (shared/domain/subscriptions/prepare.ts), not by a route. */
export const subscriptionRoutes: RouteDefinition[] = [
  {
    id: 'getSubscription', method: 'GET', path: '/v2/subscriptions/{id}', handler: 'functions/subscriptions/get.ts',
    scope: 'read', tag: 'Subscriptions', summary: 'Get a subscription', request: { path: idPath }, response: { status: 200, schema: subscriptionResource },
    // Metered products' current usage reads the customer's raw events of partial hours (gsi2).
    indexes: ['gsi2'],
  },
  {
    id: 'listSubscriptions', method: 'GET', path: '/v2/subscriptions', handler: 'functions/subscriptions/list.ts',
    scope: 'read', tag: 'Subscriptions', summary: 'List subscriptions (filters: status, customer_id)',
    request: { query: subscriptionListQuery }, response: { status: 200, schema: listOf(subscriptionResource), list: true },
  },
  {
    id: 'cancelSubscription', method: 'POST', path: '/v1/subscriptions/{id}/cancel', handler: 'functions/subscriptions/cancel.ts',
    scope: 'write', tag: 'Subscriptions', summary: 'Cancel a subscription at the end of its period (default) or immediately',
    request: { path: idPath, body: subscriptionCancelBody }, response: { status: 200, schema: subscriptionResource },
  },
];
