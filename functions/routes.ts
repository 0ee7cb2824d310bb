import type { Scope } from '../shared/http/route-meta';
import type { Schema } from '../shared/schemas/common';
import { idPath } from '../shared/schemas/common';
import { customerCreateBody, customerListQuery, customerResource, customerUpdateBody } from '../shared/schemas/customers';
import { entityCreateBody, entityListQuery, entityResource, entityUpdateBody } from '../shared/schemas/invoicing-entities';
import { clientRegistrationBody, clientRegistrationResource } from '../shared/schemas/oauth-clients';
import {
  attemptResource, endpointCreateBody, endpointResource, endpointUpdateBody, messageListQuery, messageListResource, messageResource,
  pagingOnlyQuery,
} from '../shared/schemas/webhooks';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * THE route table: every route once. The CDK stack, the local server, the validators (bin/generate-validators.ts),
 * the OpenAPI document and the cross-cutting tests are all derived from it.
 */
export interface RouteDefinition {
  /** camelCase, unique: names the generated validator module and the Lambda function. */
  id: string;
  method: Method;
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  /** `read` for GET routes and `write` for the others (DESIGN.md §7); `any` = a valid token suffices. */
  scope: Scope;
  summary: string;
  tag: string;
  request: { path?: Schema; query?: Schema; body?: Schema };
  response: { status: number; schema: Schema; list?: boolean };
  errorFormat?: 'oauth';
}

const list = (item: Schema): Schema => ({
  type: 'object',
  properties: {
    meta: {
      type: 'object',
      properties: { total: { type: 'integer' }, taken: { type: 'integer' }, skipped: { type: 'integer' }, approximateCount: { type: 'boolean' } },
    },
    data: { type: 'array', items: item },
  },
});

export const routes: RouteDefinition[] = [
  // Invoicing entities
  {
    id: 'createInvoicingEntity', method: 'POST', path: '/v1/invoicing-entities', handler: 'functions/invoicing-entities/create.ts',
    scope: 'write', tag: 'Invoicing entities', summary: 'Create an invoicing entity',
    request: { body: entityCreateBody }, response: { status: 201, schema: entityResource },
  },
  {
    id: 'listInvoicingEntities', method: 'GET', path: '/v1/invoicing-entities', handler: 'functions/invoicing-entities/list.ts',
    scope: 'read', tag: 'Invoicing entities', summary: 'List invoicing entities',
    request: { query: entityListQuery }, response: { status: 200, schema: list(entityResource), list: true },
  },
  {
    id: 'getInvoicingEntity', method: 'GET', path: '/v1/invoicing-entities/{id}', handler: 'functions/invoicing-entities/get.ts',
    scope: 'read', tag: 'Invoicing entities', summary: 'Get an invoicing entity',
    request: { path: idPath }, response: { status: 200, schema: entityResource },
  },
  {
    id: 'updateInvoicingEntity', method: 'PUT', path: '/v1/invoicing-entities/{id}', handler: 'functions/invoicing-entities/update.ts',
    scope: 'write', tag: 'Invoicing entities', summary: 'Update an invoicing entity (partial)',
    request: { path: idPath, body: entityUpdateBody }, response: { status: 200, schema: entityResource },
  },
  {
    id: 'deleteInvoicingEntity', method: 'DELETE', path: '/v1/invoicing-entities/{id}', handler: 'functions/invoicing-entities/delete.ts',
    scope: 'write', tag: 'Invoicing entities', summary: 'Delete an invoicing entity (soft delete)',
    request: { path: idPath }, response: { status: 200, schema: entityResource },
  },
  // Customers
  {
    id: 'createCustomer', method: 'POST', path: '/v1/customers', handler: 'functions/customers/create.ts',
    scope: 'write', tag: 'Customers', summary: 'Create a customer',
    request: { body: customerCreateBody }, response: { status: 201, schema: customerResource },
  },
  {
    id: 'listCustomers', method: 'GET', path: '/v1/customers', handler: 'functions/customers/list.ts',
    scope: 'read', tag: 'Customers', summary: 'List customers',
    request: { query: customerListQuery }, response: { status: 200, schema: list(customerResource), list: true },
  },
  {
    id: 'getCustomer', method: 'GET', path: '/v1/customers/{id}', handler: 'functions/customers/get.ts',
    scope: 'read', tag: 'Customers', summary: 'Get a customer',
    request: { path: idPath }, response: { status: 200, schema: customerResource },
  },
  {
    id: 'updateCustomer', method: 'PUT', path: '/v1/customers/{id}', handler: 'functions/customers/update.ts',
    scope: 'write', tag: 'Customers', summary: 'Update a customer (partial; null clears)',
    request: { path: idPath, body: customerUpdateBody }, response: { status: 200, schema: customerResource },
  },
  {
    id: 'archiveCustomer', method: 'PUT', path: '/v1/customers/{id}/archive', handler: 'functions/customers/archive.ts',
    scope: 'write', tag: 'Customers', summary: 'Archive a customer',
    request: { path: idPath }, response: { status: 200, schema: customerResource },
  },
  {
    id: 'unarchiveCustomer', method: 'PUT', path: '/v1/customers/{id}/unarchive', handler: 'functions/customers/unarchive.ts',
    scope: 'write', tag: 'Customers', summary: 'Unarchive a customer',
    request: { path: idPath }, response: { status: 200, schema: customerResource },
  },
  {
    id: 'deleteCustomer', method: 'DELETE', path: '/v1/customers/{id}', handler: 'functions/customers/delete.ts',
    scope: 'write', tag: 'Customers', summary: 'Delete a customer (soft delete)',
    request: { path: idPath }, response: { status: 200, schema: customerResource },
  },
  // Webhooks
  {
    id: 'createWebhookEndpoint', method: 'POST', path: '/v1/webhooks/endpoints', handler: 'functions/webhooks/create-endpoint.ts',
    scope: 'write', tag: 'Webhooks', summary: 'Register a webhook endpoint (its secret is returned only now)',
    request: { body: endpointCreateBody }, response: { status: 201, schema: endpointResource },
  },
  {
    id: 'listWebhookEndpoints', method: 'GET', path: '/v1/webhooks/endpoints', handler: 'functions/webhooks/list-endpoints.ts',
    scope: 'read', tag: 'Webhooks', summary: 'List webhook endpoints',
    request: { query: pagingOnlyQuery }, response: { status: 200, schema: list(endpointResource), list: true },
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
    request: { path: idPath, query: pagingOnlyQuery }, response: { status: 200, schema: list(attemptResource), list: true },
  },
  {
    id: 'listWebhookMessages', method: 'GET', path: '/v1/webhooks/messages', handler: 'functions/webhooks/list-messages.ts',
    scope: 'read', tag: 'Webhooks', summary: 'List webhook messages, newest first',
    request: { query: messageListQuery }, response: { status: 200, schema: messageListResource },
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
  },
  // OAuth
  {
    id: 'registerOAuthClient', method: 'POST', path: '/oauth/register', handler: 'functions/oauth/register.ts',
    scope: 'any', tag: 'OAuth', summary: 'Register an OAuth client (RFC 7591)', errorFormat: 'oauth',
    request: { body: clientRegistrationBody }, response: { status: 201, schema: clientRegistrationResource },
  },
];
