import { findLinkedInvoice } from '../../shared/domain/pages/linked-invoice';
import { downloadInvoice } from '../../shared/domain/invoices/pdf/download';
import { pageHandler } from '../../shared/pages/page-handler';
import { route } from '../../shared/schemas/generated/invoicePagePdf.js';

/** The PDF of the link's invoice, as `GET /v1/invoices/{id}/download` makes it by default. */
export const handler = pageHandler(route, 'invoice', async ({ ctx, claims }) => {
  await findLinkedInvoice(ctx, claims.id, claims.generation);
  return downloadInvoice(ctx, claims.id); // the entity's default: Factur-X where it is enabled
});
