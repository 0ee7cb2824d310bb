import type { Ctx } from '../../../context';
import { binaryResponse, type BinaryResponse } from '../../../http/responses';
import { getInvoice } from '../read';
import { readersOf } from './download';
import { wordsFor } from './labels';
import { receiptNumber, receiptPayment } from './receipt';

/**
 * GET /v1/invoices/{id}/transactions/{transactionId}/receipt: the receipt of one successful payment of the invoice
 * as a PDF named after its number (docs/invoice-pdf.md, "Receipts").
 */
export async function downloadReceipt(ctx: Ctx, invoiceId: string, transactionId: string): Promise<BinaryResponse> {
  const invoice = await getInvoice(ctx, invoiceId);
  const payment = receiptPayment(invoice, transactionId);
  const { entity, branding, language } = await readersOf(ctx, invoice);
  // pdfkit loaded on first use, as for the invoice's PDF (render.ts).
  const [{ receiptSheet }, { renderSheet }, { invoiceParties }] = await Promise.all([import('./receipt'), import('#lazy/pdf-sheet'), import('./header')]);
  const words = wordsFor(language, branding.timezone);
  const pdf = await renderSheet(receiptSheet(invoice, payment, words, invoiceParties(invoice, words, entity)), { brandColor: branding.brandColor, logo: branding.logo, words });
  return binaryResponse(pdf, 'application/pdf', `${receiptNumber(invoice, payment)}.pdf`);
}
