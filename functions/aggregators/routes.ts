import { exactListMeta, listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { aggregatorCreateBody, aggregatorListQuery, aggregatorResource, aggregatorUpdateBody } from '../../shared/schemas/aggregators';

export const aggregatorRoutes: RouteDefinition[] = [
  {
    id: 'createAggregator', method: 'POST', path: '/v1/aggregators', handler: 'functions/aggregators/create.ts',
    scope: 'write', tag: 'Aggregators', summary: 'Create an aggregator (what usage of an event type counts, and how)',
    request: { body: aggregatorCreateBody }, response: { status: 201, schema: aggregatorResource },
  },
  {
    id: 'listAggregators', method: 'GET', path: '/v1/aggregators', handler: 'functions/aggregators/list.ts',
    scope: 'read', tag: 'Aggregators', summary: 'List aggregators (oldest first; deleted ones are not listed)',
    request: { query: aggregatorListQuery }, response: { status: 200, schema: listOf(aggregatorResource, exactListMeta), list: true },
    // One Query of the workspace's aggregator partition (the table's own keys): no index.
    indexes: [],
  },
  {
    id: 'getAggregator', method: 'GET', path: '/v1/aggregators/{id}', handler: 'functions/aggregators/get.ts',
    scope: 'read', tag: 'Aggregators', summary: 'Get an aggregator',
    request: { path: idPath }, response: { status: 200, schema: aggregatorResource },
  },
  {
    id: 'updateAggregator', method: 'PUT', path: '/v1/aggregators/{id}', handler: 'functions/aggregators/update.ts',
    scope: 'write', tag: 'Aggregators', summary: 'Rename an aggregator (partial; its definition is fixed)',
    description:
      '`name` and `unit_name` change freely. The definition (`event_type`, `operation`, `property`, `filters`) may be repeated as it is but ' +
      'never changed (422 `aggregator_definition_immutable`): create a new aggregator instead, so that usage already aggregated keeps its meaning.',
    request: { path: idPath, body: aggregatorUpdateBody }, response: { status: 200, schema: aggregatorResource },
  },
  {
    id: 'deleteAggregator', method: 'DELETE', path: '/v1/aggregators/{id}', handler: 'functions/aggregators/delete.ts',
    scope: 'write', tag: 'Aggregators', summary: 'Delete an aggregator (soft delete; 409 while a product names it)',
    request: { path: idPath }, response: { status: 200, schema: aggregatorResource },
    // A refusal names the products that use it, from their gsi3 partition under the aggregator.
    indexes: ['gsi3'],
  },
];
