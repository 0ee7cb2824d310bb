import { exactListMeta, listOf, routesOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { entitlementOverrideBody, entitlementPath, entitlementsResource, featureCreateBody, featureListQuery, featureResource, featureUpdateBody } from '../../shared/schemas/plans';

const route = routesOf({ dir: 'features', tag: 'Entitlements', schema: featureResource });

/** Features, granted by plan versions and overridden per customer; a customer's entitlements (docs/entitlements.md). */
export const featureRoutes: RouteDefinition[] = [
  route('createFeature', 'POST', '/v1/features', 'create', 'Create a feature (boolean, limit, or metered against an aggregator)', {
    request: { body: featureCreateBody }, response: { status: 201, schema: featureResource },
  }),
  route('listFeatures', 'GET', '/v1/features', 'list', 'List features (oldest first)', {
    request: { query: featureListQuery }, response: { status: 200, schema: listOf(featureResource, exactListMeta), list: true },
    // One Query of the workspace's feature partition (the table's own keys): no index.
    indexes: [],
  }),
  route('getFeature', 'GET', '/v1/features/{id}', 'get', 'Get a feature', {}),
  route('updateFeature', 'PATCH', '/v1/features/{id}', 'update', 'Rename a feature (its code, type and aggregator are fixed)', { request: { path: idPath, body: featureUpdateBody } }),
  route('getCustomerEntitlements', 'GET', '/v1/customers/{id}/entitlements', 'entitlements', "A customer's entitlements, in one read", {
    response: { status: 200, schema: entitlementsResource },
    // One GetItem; a metered entitlement's usage so far reads the customer's raw events of partial hours (gsi2).
    indexes: ['gsi2'],
  }),
  route('overrideEntitlement', 'PUT', '/v1/customers/{id}/entitlements/{featureId}', 'override', "Override a feature's value for one customer", {
    request: { path: entitlementPath, body: entitlementOverrideBody }, response: { status: 200, schema: entitlementsResource },
  }),
  route('removeEntitlementOverride', 'DELETE', '/v1/customers/{id}/entitlements/{featureId}', 'remove-override', "Remove a customer's override (the plan's value applies again)", {
    request: { path: entitlementPath }, response: { status: 200, schema: entitlementsResource },
  }),
];
