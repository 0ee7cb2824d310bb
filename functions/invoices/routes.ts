import { actionsOf, listOf, type RouteDefinition } from '../route-definition';
import { invoiceDownloadRoute, receiptDownloadRoute } from './download-route';
import { batchBody, batchResource } from '../../shared/schemas/batch';
import { idPath } from '../../shared/schemas/common';
import {
  chargeBody, creditNoteCreateBody, invoiceCreateBody, invoiceListQuery, invoiceResource, invoiceUpdateBody, transactionCreateBody,
} from '../../shared/schemas/invoices';

/** `POST /v1/invoices/{id}/<verb>`: one status move of decisions.md ("Invoices"), answering 200 with the invoice. */
const action = actionsOf({ path: '/v1/invoices', dir: 'invoices', tag: 'Invoices', schema: invoiceResource });

export const invoiceRoutes: RouteDefinition[] = [
  {
    id: 'createInvoice', method: 'POST', path: '/v1/invoices', handler: 'functions/invoices/create.ts',
    scope: 'write', tag: 'Invoices', summary: 'Create a one-off invoice or document (draft, or to_pay: numbered at once)',
    request: { body: invoiceCreateBody }, response: { status: 201, schema: invoiceResource },
    // A line naming only a product is priced by that product's configurations (the parent index, gsi3).
    indexes: ['gsi3'],
  },
  {
    id: 'createInvoiceBatch', method: 'POST', path: '/v1/invoices/batch', handler: 'functions/invoices/create-batch.ts',
    scope: 'write', tag: 'Invoices', summary: 'Create 1 to 100 invoices (the body is their array; Hyperline\'s batch, for imports)',
    description: 'Each item is checked and created as by `POST /v1/invoices` (Hyperline\'s import members included), in order; a refused item rejects only itself and is listed with its position and reason. See docs/hyperline.md.',
    request: { body: batchBody }, response: { status: 201, schema: batchResource('invoices', invoiceResource) },
    indexes: ['gsi3'],
  },
  {
    id: 'listInvoices', method: 'GET', path: '/v1/invoices', handler: 'functions/invoices/list.ts',
    scope: 'read', tag: 'Invoices', summary: 'List invoices, credit notes and documents',
    request: { query: invoiceListQuery }, response: { status: 200, schema: listOf(invoiceResource), list: true },
  },
  {
    id: 'listInvoicesV2', method: 'GET', path: '/v2/invoices', handler: 'functions/invoices/list-v2.ts',
    scope: 'read', tag: 'Invoices', summary: "List invoices (Hyperline's v2 path; as GET /v1/invoices)",
    request: { query: invoiceListQuery }, response: { status: 200, schema: listOf(invoiceResource), list: true },
  },
  {
    id: 'getInvoice', method: 'GET', path: '/v1/invoices/{id}', handler: 'functions/invoices/get.ts',
    scope: 'read', tag: 'Invoices', summary: 'Get an invoice', request: { path: idPath }, response: { status: 200, schema: invoiceResource },
  },
  {
    id: 'updateInvoice', method: 'PATCH', path: '/v1/invoices/{id}', handler: 'functions/invoices/update.ts',
    scope: 'write', tag: 'Invoices', summary: 'Update an invoice (lines and dates in draft or grace_period; metadata always)',
    request: { path: idPath, body: invoiceUpdateBody }, response: { status: 200, schema: invoiceResource },
    // A line naming only a product is priced by that product's configurations (the parent index, gsi3).
    indexes: ['gsi3'],
  },
  {
    id: 'deleteInvoice', method: 'DELETE', path: '/v1/invoices/{id}', handler: 'functions/invoices/delete.ts',
    scope: 'write', tag: 'Invoices', summary: 'Discard a draft invoice (closed)', request: { path: idPath }, response: { status: 200, schema: invoiceResource },
  },
  action('validateInvoice', 'validate', 'Validate a draft: number it and move it to grace_period or to_pay'),
  action('markInvoiceUncollectible', 'uncollectible', 'Mark an unpaid invoice uncollectible (bad debt)'),
  action('voidInvoice', 'void', 'Void an unpaid invoice: a credit note for its full amount is created'),
  action('chargeInvoice', 'charge', 'Charge the amount due with a saved payment method (a decline moves the invoice to error)', chargeBody),
  {
    id: 'createInvoiceTransaction', method: 'POST', path: '/v1/invoices/{id}/transactions', handler: 'functions/invoices/transactions.ts',
    scope: 'write', tag: 'Invoices', summary: 'Record a payment (transfer, cash…) or pay from the wallet; answers with the invoice',
    request: { path: idPath, body: transactionCreateBody }, response: { status: 201, schema: invoiceResource },
  },
  {
    id: 'createCreditNote', method: 'POST', path: '/v1/invoices/{id}/credit-notes', handler: 'functions/invoices/credit-notes.ts',
    scope: 'write', tag: 'Invoices', summary: 'Credit an invoice (all or part, never more than uncredited) and refund it',
    request: { path: idPath, body: creditNoteCreateBody }, response: { status: 201, schema: invoiceResource },
  },
  invoiceDownloadRoute,
  receiptDownloadRoute,
];
