import { listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { emailListQuery, emailResource } from '../../shared/schemas/emails';

export const emailRoutes: RouteDefinition[] = [
  {
    id: 'listEmails', method: 'GET', path: '/v1/emails', handler: 'functions/emails/list.ts',
    scope: 'read', tag: 'Emails', summary: 'List the emails sent (or decided not to be) to customers, with their status and provider id',
    request: { query: emailListQuery }, response: { status: 200, schema: listOf(emailResource), list: true },
  },
  {
    id: 'sendInvoice', method: 'POST', path: '/v1/invoices/{id}/send', handler: 'functions/emails/send-invoice.ts',
    scope: 'write', tag: 'Emails', summary: "Email an issued invoice again to its customer (a new email; its receipt once paid)",
    request: { path: idPath }, response: { status: 200, schema: emailResource },
  },
];
