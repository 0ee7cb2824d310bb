import type { Ctx } from '../../context';
import { binaryResponse, type BinaryResponse } from '../../http/responses';
import { readersOf } from '../invoices/pdf/download';
import { wordsFor } from '../invoices/pdf/labels';
import { customerSnapshot, sellerSnapshot } from '../invoices/snapshots';
import { getQuote } from './read';

/**
 * GET /v1/quotes/{id}/download: the quote as a PDF named after its number, in the customer's language (else the
 * entity's), with the entity's colour and logo (docs/invoice-pdf.md, "Quotes").
 */
export async function downloadQuote(ctx: Ctx, id: string): Promise<BinaryResponse> {
  const quote = await getQuote(ctx, id);
  const { entity, customer, branding, language } = await readersOf(ctx, { seller: { id: quote.invoicing_entity_id }, customer_id: quote.customer_id });
  const words = wordsFor(language, branding.timezone);
  // pdfkit loaded on first use, as for the invoice's PDF (invoices/pdf/render.ts).
  const [{ quoteSheet }, { renderSheet }] = await Promise.all([import('./pdf'), import('#lazy/pdf-sheet')]);
  const parties = {
    seller: entity ? sellerSnapshot(entity) : { id: quote.invoicing_entity_id, name: '', trade_name: null, tax_id: null, address: emptyAddress },
    customer: customer ? customerSnapshot(customer) : { id: quote.customer_id, name: '', email: null, external_id: null, vat_number: null, tax_id: null, address: null },
    entity,
  };
  const pdf = await renderSheet(quoteSheet(quote, parties, words), { brandColor: branding.brandColor, logo: branding.logo, words });
  return binaryResponse(pdf, 'application/pdf', `${quote.number}.pdf`);
}

const emptyAddress = { name: null, line1: null, line2: null, city: null, zip: null, state: null, country: null };
