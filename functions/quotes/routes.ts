import { actionsOf, listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import {
  quoteCreateBody, quoteListQuery, quoteResource, quoteSendBody, quoteSignBody, quoteUpdateBody, quoteVoidBody,
} from '../../shared/schemas/quotes';

/** `POST /v1/quotes/{id}/<verb>`: one status move of decisions.md ("Quotes"), answering 200 with the quote. */
const action = actionsOf({ path: '/v1/quotes', dir: 'quotes', tag: 'Quotes', schema: quoteResource });

export const quoteRoutes: RouteDefinition[] = [
  {
    id: 'createQuote', method: 'POST', path: '/v1/quotes', handler: 'functions/quotes/create.ts',
    scope: 'write', tag: 'Quotes', summary: 'Create a quote (draft; approved or pending_signature when asked and no approval is required), numbered',
    request: { body: quoteCreateBody }, response: { status: 201, schema: quoteResource },
    // A product of Hyperline's subscription finds its price configuration among the product's (the parent index).
    indexes: ['gsi3'],
  },
  {
    id: 'listQuotes', method: 'GET', path: '/v1/quotes', handler: 'functions/quotes/list.ts',
    scope: 'read', tag: 'Quotes', summary: 'List quotes (filters: status, customer_id, type, number, created_at)',
    request: { query: quoteListQuery }, response: { status: 200, schema: listOf(quoteResource), list: true },
  },
  {
    id: 'getQuote', method: 'GET', path: '/v1/quotes/{id}', handler: 'functions/quotes/get.ts',
    scope: 'read', tag: 'Quotes', summary: 'Get a quote', request: { path: idPath }, response: { status: 200, schema: quoteResource },
  },
  {
    id: 'updateQuote', method: 'PATCH', path: '/v1/quotes/{id}', handler: 'functions/quotes/update.ts',
    scope: 'write', tag: 'Quotes', summary: 'Update a quote in draft or changes_requested (partial; null clears)',
    request: { path: idPath, body: quoteUpdateBody }, response: { status: 200, schema: quoteResource },
  },
  {
    id: 'downloadQuote', method: 'GET', path: '/v1/quotes/{id}/download', handler: 'functions/quotes/download.ts',
    scope: 'read', tag: 'Quotes', summary: 'Download a quote as a PDF (what its page shows, as its display flags say)',
    request: { path: idPath }, response: { status: 200, schema: { type: 'string', format: 'binary' }, mediaTypes: ['application/pdf'] },
  },
  action('finalizeQuote', 'finalize', 'Finalize a draft: pending_approval when the quote requires approval, else approved'),
  action('approveQuote', 'approve', 'Approve a quote pending approval'),
  action('requestQuoteChanges', 'request-changes', 'Send a quote pending approval back for changes'),
  action('sendQuote', 'send', 'Send an approved quote for signature: pending_signature, with its public url', quoteSendBody),
  // A one-off quote issues its invoice through createInvoice, whose line pricing may read gsi3.
  { ...action('signQuote', 'sign', 'Mark a quote signed outside the service: creates its subscription, updates it, or issues its invoice', quoteSignBody), indexes: ['gsi3'] },
  action('voidQuote', 'void', 'Void a quote that is not signed, with a reason', quoteVoidBody),
];
