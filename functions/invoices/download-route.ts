import type { RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { transactionPath } from '../../shared/schemas/wallets';

export const DOWNLOAD_FORMATS = ['pdf', 'facturx', 'ubl', 'cii'] as const;

/** The invoice as a PDF, a Factur-X PDF, or EN 16931 XML (base64 through API Gateway); errors stay JSON. */
export const invoiceDownloadRoute: RouteDefinition = {
  id: 'downloadInvoice', method: 'GET', path: '/v1/invoices/{id}/download', handler: 'functions/invoices/download.ts',
  scope: 'read', tag: 'Invoices', summary: 'Download an invoice, credit note or document as a PDF, a Factur-X PDF, or UBL / CII XML (EN 16931)',
  request: {
    path: idPath,
    query: {
      type: 'object', additionalProperties: false,
      properties: {
        format: {
          type: 'string', enum: [...DOWNLOAD_FORMATS],
          description: 'pdf: the plain PDF; facturx: PDF/A-3 with its CII embedded (Factur-X EN 16931); ubl: UBL 2.1 XML; cii: UN/CEFACT CII D16B XML. ' +
            'Default: facturx for issued invoices and credit notes of an entity with facturx_enabled, else pdf. See docs/e-invoicing.md.',
        },
      },
    },
  },
  response: { status: 200, schema: { type: 'string', format: 'binary' }, mediaTypes: ['application/pdf', 'application/xml'] },
};

/** A successful payment's receipt as a PDF (docs/invoice-pdf.md, "Receipts"). */
export const receiptDownloadRoute: RouteDefinition = {
  id: 'downloadInvoiceReceipt', method: 'GET', path: '/v1/invoices/{id}/transactions/{transactionId}/receipt', handler: 'functions/invoices/receipt.ts',
  scope: 'read', tag: 'Invoices', summary: 'Download the receipt of a successful payment of the invoice as a PDF (its number, day, way and amount, the invoice it pays)',
  request: { path: transactionPath },
  response: { status: 200, schema: { type: 'string', format: 'binary' }, mediaTypes: ['application/pdf'] },
};
