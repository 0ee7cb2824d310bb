import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  attemptResource, endpointCreateBody, endpointResource, endpointUpdateBody, messageListQuery, messageListResource, messageResource,
  pagingOnlyQuery,
} from '../../shared/schemas/webhooks';

export const webhookRoutes: RouteDefinition[] = [
  {
    id: 'createWebhookEndpoint', method: 'POST', path: '/v1/webhooks/endpoints', handler: 'functions/webhooks/create-endpoint.ts',
    scope: 'write', tag: 'Webhooks', summary: 'Register a webhook endpoint (its secret is returned only now)',
    request: { body: endpointCreateBody }, response: { status: 201, schema: endpointResource },
  },
  {
    id: 'listWebhookEndpoints', method: 'GET', path: '/v1/webhooks/endpoints', handler: 'functions/webhooks/list-endpoints.ts',
    scope: 'read', tag: 'Webhooks', summary: 'List webhook endpoints',
    request: { query: pagingOnlyQuery }, response: { status: 200, schema: listOf(endpointResource), list: true },
  },
  {
    id: 'getWebhookEndpoint', method: 'GET', path: '/v1/webhooks/endpoints/{id}', handler: 'functions/webhooks/get-endpoint.ts',
    scope: 'read', tag: 'Webhooks', summary: 'Get a webhook endpoint',
    request: { path: idPath }, response: { status: 200, schema: endpointResource },
  },
  {
    id: 'updateWebhookEndpoint', method: 'PUT', path: '/v1/webhooks/endpoints/{id}', handler: 'functions/webhooks/update-endpoint.ts',
    scope: 'write', tag: 'Webhooks', summary: 'Update a webhook endpoint (a new secret starts a 24 h rotation)',
    request: { path: idPath, body: endpointUpdateBody }, response: { status: 200, schema: endpointResource },
  },
  {
    id: 'deleteWebhookEndpoint', method: 'DELETE', path: '/v1/webhooks/endpoints/{id}', handler: 'functions/webhooks/delete-endpoint.ts',
    scope: 'write', tag: 'Webhooks', summary: 'Delete a webhook endpoint',
    request: { path: idPath }, response: { status: 200, schema: endpointResource },
  },
  {
    id: 'listWebhookAttempts', method: 'GET', path: '/v1/webhooks/endpoints/{id}/attempts', handler: 'functions/webhooks/list-attempts.ts',
    scope: 'read', tag: 'Webhooks', summary: "List an endpoint's delivery attempts, newest first",
    request: { path: idPath, query: pagingOnlyQuery }, response: { status: 200, schema: listOf(attemptResource), list: true },
    indexes: [],
  },
  {
    id: 'listWebhookMessages', method: 'GET', path: '/v1/webhooks/messages', handler: 'functions/webhooks/list-messages.ts',
    scope: 'read', tag: 'Webhooks', summary: 'List webhook messages, newest first',
    request: { query: messageListQuery }, response: { status: 200, schema: messageListResource },
    indexes: ['gsi2'],
  },
  {
    id: 'getWebhookMessage', method: 'GET', path: '/v1/webhooks/messages/{id}', handler: 'functions/webhooks/get-message.ts',
    scope: 'read', tag: 'Webhooks', summary: 'Get a webhook message',
    request: { path: idPath }, response: { status: 200, schema: messageResource },
  },
  {
    id: 'retryWebhookMessage', method: 'POST', path: '/v1/webhooks/messages/{id}/retry', handler: 'functions/webhooks/retry-message.ts',
    scope: 'write', tag: 'Webhooks', summary: 'Send a message again to its subscribed endpoints',
    request: { path: idPath }, response: { status: 200, schema: messageResource },
    indexes: ['gsi1'],
  },
];
