import type { RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { subscriptionCreateBody } from '../../shared/schemas/subscriptions';
import { subscriptionChangePreviewBody, subscriptionChangePreviewResource, subscriptionPreviewResource } from '../../shared/schemas/subscription-previews';

/**
 * Previews (as Stripe's `POST /v1/invoices/create_preview`): the body of a creation or of a change, answered with what
 * it would bill, computed by the same domain functions; nothing is written. POST because they take the same body as
 * the routes they preview; `write` scope, as those.
 */
export const subscriptionPreviewRoutes: RouteDefinition[] = [
  {
    id: 'previewSubscription', method: 'POST', path: '/v2/subscriptions/preview', handler: 'functions/subscriptions/preview.ts',
    scope: 'write', tag: 'Subscriptions', summary: 'Preview a subscription: its first invoice, from the body of POST /v2/subscriptions (nothing is created)',
    request: { body: subscriptionCreateBody }, response: { status: 200, schema: subscriptionPreviewResource },
    // A product in Hyperline's shape finds its price configuration among the product's (the parent index, gsi3).
    indexes: ['gsi3'],
  },
  {
    id: 'previewSubscriptionChange', method: 'POST', path: '/v2/subscriptions/{id}/preview', handler: 'functions/subscriptions/preview-change.ts',
    scope: 'write', tag: 'Subscriptions', summary: 'Preview a change of products: its proration, from the body of PATCH /v2/subscriptions/{id} (nothing is changed)',
    request: { path: idPath, body: subscriptionChangePreviewBody }, response: { status: 200, schema: subscriptionChangePreviewResource },
    // As PATCH, it decides on the subscription up to date: billing dates already due are billed first (settle.ts,
    // upToDate; not the preview's effect), reading metered usage (gsi2) and creating invoices (gsi3).
    indexes: ['gsi2', 'gsi3'],
  },
];
