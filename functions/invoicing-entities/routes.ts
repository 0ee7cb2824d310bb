import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { entityCreateBody, entityListQuery, entityResource, entityUpdateBody } from '../../shared/schemas/invoicing-entities';

export const invoicingEntityRoutes: RouteDefinition[] = [
  {
    id: 'createInvoicingEntity', method: 'POST', path: '/v1/invoicing-entities', handler: 'functions/invoicing-entities/create.ts',
    scope: 'write', tag: 'Invoicing entities', summary: 'Create an invoicing entity',
    request: { body: entityCreateBody }, response: { status: 201, schema: entityResource },
  },
  {
    id: 'listInvoicingEntities', method: 'GET', path: '/v1/invoicing-entities', handler: 'functions/invoicing-entities/list.ts',
    scope: 'read', tag: 'Invoicing entities', summary: 'List invoicing entities',
    request: { query: entityListQuery }, response: { status: 200, schema: listOf(entityResource), list: true },
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
];
