import { exactListMeta, listOf, routesOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  migrationBody, migrationPreviewResource, planCreateBody, planListQuery, planMigrationResource, planResource, planUpdateBody, planVersionCreateBody, planVersionResource,
} from '../../shared/schemas/plans';

const route = routesOf({ dir: 'plans', tag: 'Plans', schema: planResource });

/** Plans, their immutable versions and migrations between them (docs/plans.md). */
export const planRoutes: RouteDefinition[] = [
  route('createPlan', 'POST', '/v1/plans', 'create', 'Create a plan (products and price configurations, features) with its version 1', {
    request: { body: planCreateBody }, response: { status: 201, schema: planResource },
  }),
  route('listPlans', 'GET', '/v1/plans', 'list', 'List plans (oldest first; deleted ones are not listed)', {
    request: { query: planListQuery }, response: { status: 200, schema: listOf(planResource, exactListMeta), list: true },
    // One Query of the workspace's plan partition (the table's own keys) and a BatchGetItem of their latest versions.
    indexes: [],
  }),
  route('getPlan', 'GET', '/v1/plans/{id}', 'get', 'Get a plan, its latest version in full', {}),
  route('updatePlan', 'PATCH', '/v1/plans/{id}', 'update', 'Rename a plan (what it sells changes by a new version)', { request: { path: idPath, body: planUpdateBody } }),
  route('deletePlan', 'DELETE', '/v1/plans/{id}', 'delete', 'Delete a plan (soft: no new subscription; existing ones keep their version)', {}),
  route('createPlanVersion', 'POST', '/v1/plans/{id}/versions', 'create-version', 'Add a version: the latest from now on; no existing subscription changes until a migration', {
    request: { path: idPath, body: planVersionCreateBody }, response: { status: 201, schema: planResource },
  }),
  route('getPlanVersion', 'GET', '/v1/plan-versions/{id}', 'get-version', 'Get a plan version', { response: { status: 200, schema: planVersionResource } }),
  route('previewPlanMigration', 'POST', '/v1/plans/{id}/migrations/preview', 'preview-migration', 'Preview a migration: which subscriptions would move, when, and what each would be billed', {
    request: { path: idPath, body: migrationBody }, response: { status: 200, schema: migrationPreviewResource },
    // The plan's subscriptions, from their entries under the plan in the keys-only parent index.
    indexes: ['gsi3'],
  }),
  route('createPlanMigration', 'POST', '/v1/plans/{id}/migrations', 'create-migration', "Migrate a plan's subscriptions to a version (asynchronous, page by page; each moved once)", {
    request: { path: idPath, body: migrationBody }, response: { status: 202, schema: planMigrationResource },
  }),
  route('getPlanMigration', 'GET', '/v1/plan-migrations/{id}', 'get-migration', "Get a migration's progress", { response: { status: 200, schema: planMigrationResource } }),
];
