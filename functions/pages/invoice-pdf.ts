import { findLinkedInvoice } from '../../shared/domain/pages/linked-invoice';
import { downloadInvoice, type DownloadFormat } from '../../shared/domain/invoices/pdf/download';
import { pageHandler } from '../../shared/pages/page-handler';
import { route } from '../../shared/schemas/generated/invoicePagePdf.js';

/** The link's invoice, as `GET /v1/invoices/{id}/download` makes it: by default the entity's (Factur-X where enabled), or in `format`. */
export const handler = pageHandler<Record<string, never>, { format?: DownloadFormat }>(route, 'invoice', async ({ ctx, claims }, { query }) => {
  await findLinkedInvoice(ctx, claims.id, claims.generation);
  return downloadInvoice(ctx, claims.id, query.format);
});
