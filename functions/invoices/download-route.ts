import type { RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';

/** The invoice as a PDF (application/pdf, base64 through API Gateway); errors stay JSON. */
export const invoiceDownloadRoute: RouteDefinition = {
  id: 'downloadInvoice', method: 'GET', path: '/v1/invoices/{id}/download', handler: 'functions/invoices/download.ts',
  scope: 'read', tag: 'Invoices', summary: 'Download an invoice, credit note or document as a PDF',
  request: { path: idPath }, response: { status: 200, schema: { type: 'string', format: 'binary' } },
};
