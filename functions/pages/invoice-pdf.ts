import { findLinkedInvoice } from '../../shared/domain/pages/invoice-page';
import { downloadInvoicePdf } from '../../shared/domain/invoices/pdf/download';
import { pageHandler } from '../../shared/pages/page-handler';
import { route } from '../../shared/schemas/generated/invoicePagePdf.js';

/** The PDF of the link's invoice, as `GET /v1/invoices/{id}/download` makes it. */
export const handler = pageHandler(route, 'invoice', async ({ ctx, claims }) => {
  await findLinkedInvoice(ctx, claims.id, claims.generation);
  return downloadInvoicePdf(ctx, claims.id);
});
