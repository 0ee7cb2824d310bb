import { findLinkedInvoice } from '../../shared/domain/pages/linked-invoice';
import { downloadReceipt } from '../../shared/domain/invoices/pdf/receipt-download';
import { pageHandler } from '../../shared/pages/page-handler';
import { route } from '../../shared/schemas/generated/invoicePageReceipt.js';

/** The receipt of a payment of the link's invoice, as `GET /v1/invoices/{id}/transactions/{transactionId}/receipt` makes it. */
export const handler = pageHandler(route, 'invoice', async ({ ctx, claims }, { path }) => {
  await findLinkedInvoice(ctx, claims.id, claims.generation);
  return downloadReceipt(ctx, claims.id, path.transactionId!);
});
