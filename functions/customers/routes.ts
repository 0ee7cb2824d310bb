import { listOf, type RouteDefinition } from '../route-definition';
import { batchBody, batchResource } from '../../shared/schemas/batch';
import { idPath } from '../../shared/schemas/common';
import { customerCreateBody, customerListQuery, customerResource, customerUpdateBody } from '../../shared/schemas/customers';

export const customerRoutes: RouteDefinition[] = [
  {
    id: 'createCustomer', method: 'POST', path: '/v1/customers', handler: 'functions/customers/create.ts',
    scope: 'write', tag: 'Customers', summary: 'Create a customer',
    request: { body: customerCreateBody }, response: { status: 201, schema: customerResource },
  },
  {
    id: 'createCustomerBatch', method: 'POST', path: '/v1/customers/batch', handler: 'functions/customers/create-batch.ts',
    scope: 'write', tag: 'Customers', summary: 'Create 1 to 100 customers (the body is their array; Hyperline\'s batch)',
    description: 'Each item is checked and created as by `POST /v1/customers`, in order; a refused item rejects only itself and is listed with its position and reason. See docs/hyperline.md.',
    request: { body: batchBody }, response: { status: 201, schema: batchResource('customers', customerResource) },
  },
  {
    id: 'listCustomers', method: 'GET', path: '/v1/customers', handler: 'functions/customers/list.ts',
    scope: 'read', tag: 'Customers', summary: 'List customers',
    request: { query: customerListQuery }, response: { status: 200, schema: listOf(customerResource), list: true },
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
];
