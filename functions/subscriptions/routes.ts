import { actionsOf, listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  subscriptionCancelBody, subscriptionChangeBody, subscriptionCreateBody, subscriptionListQuery, subscriptionPauseBody, subscriptionResource,
  subscriptionResumeBody,
} from '../../shared/schemas/subscriptions';

const action = actionsOf({ path: '/v1/subscriptions', dir: 'subscriptions', tag: 'Subscriptions', schema: subscriptionResource });

/**
 * Subscriptions are created by `POST /v2/subscriptions` or by signing a quote, both through
 * shared/domain/subscriptions/prepare.ts; changed by PATCH (prorated) or a subscription_update quote.
 */
export const subscriptionRoutes: RouteDefinition[] = [
  {
    id: 'createSubscription', method: 'POST', path: '/v2/subscriptions', handler: 'functions/subscriptions/create.ts',
    scope: 'write', tag: 'Subscriptions', summary: 'Create a subscription (as a signed quote would)',
    request: { body: subscriptionCreateBody }, response: { status: 201, schema: subscriptionResource },
    // It answers as GET does: metered products' current usage reads raw events of partial hours (gsi2). A product
    // in Hyperline's shape finds its price configuration among the product's (the parent index, gsi3).
    indexes: ['gsi2', 'gsi3'],
  },
  {
    id: 'getSubscription', method: 'GET', path: '/v2/subscriptions/{id}', handler: 'functions/subscriptions/get.ts',
    scope: 'read', tag: 'Subscriptions', summary: 'Get a subscription', request: { path: idPath }, response: { status: 200, schema: subscriptionResource },
    // Metered products' current usage reads the customer's raw events of partial hours (gsi2).
    indexes: ['gsi2'],
  },
  {
    id: 'updateSubscription', method: 'PATCH', path: '/v2/subscriptions/{id}', handler: 'functions/subscriptions/update.ts',
    scope: 'write', tag: 'Subscriptions', summary: 'Change the products of a subscription, now (prorated) or at the next period',
    request: { path: idPath, body: subscriptionChangeBody }, response: { status: 200, schema: subscriptionResource },
    // Its answer reads metered usage (gsi2); a proration invoice is created as every invoice is (gsi3).
    indexes: ['gsi2', 'gsi3'],
  },
  {
    id: 'listSubscriptions', method: 'GET', path: '/v2/subscriptions', handler: 'functions/subscriptions/list.ts',
    scope: 'read', tag: 'Subscriptions', summary: 'List subscriptions (filters: status, customer_id)',
    request: { query: subscriptionListQuery }, response: { status: 200, schema: listOf(subscriptionResource), list: true },
  },
  {
    ...action('cancelSubscription', 'cancel', 'Cancel a subscription at the end of its period (default) or immediately', subscriptionCancelBody),
    // An immediate cancellation bills the period's metered usage so far (raw events of partial hours: gsi2) on a
    // final invoice, created as every invoice is (gsi3).
    indexes: ['gsi2', 'gsi3'],
  },
  // These answer as GET does (metered usage: gsi2) and write through the same settlement as a change (gsi3).
  { ...action('pauseSubscription', 'pause', 'Pause an active subscription, with or without billing during the pause', subscriptionPauseBody), indexes: ['gsi2', 'gsi3'] },
  { ...action('resumeSubscription', 'resume', 'Resume a paused subscription', subscriptionResumeBody), indexes: ['gsi2', 'gsi3'] },
  {
    ...action('reactivateSubscription', 'reactivate', 'Reactivate a paused subscription (Hyperline\'s meaning)'),
    description: 'A paused subscription becomes active, as `resume` does without an invoice for the rest of the period. Deprecated second meaning: on a subscription that is not paused, undoes a cancellation scheduled at the end of the period, as before; use `POST /v1/subscriptions/{id}/uncancel` for that (deprecated since issue 36; see docs/hyperline.md).',
    indexes: ['gsi2', 'gsi3'],
  },
  { ...action('uncancelSubscription', 'uncancel', 'Undo a cancellation scheduled at the end of the period'), indexes: ['gsi2', 'gsi3'] },
];
