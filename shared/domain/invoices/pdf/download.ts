import type { Ctx } from '../../../context';
import { NotFound } from '../../../errors';
import { binaryResponse, type BinaryResponse } from '../../../http/responses';
import { findEntityItem } from '../../invoicing-entities/read';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import { getInvoice } from '../read';

/** The seller's entity for its brand colour; an entity that is gone leaves the document in the default colours. */
async function sellerEntity(ctx: Ctx, id: string): Promise<EntityItem | null> {
  try {
    return await findEntityItem(ctx, id);
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}

/** GET /v1/invoices/{id}/download: the invoice (credit note, document) as a PDF named after its number. */
export async function downloadInvoicePdf(ctx: Ctx, id: string): Promise<BinaryResponse> {
  const invoice = await getInvoice(ctx, id);
  const entity = await sellerEntity(ctx, invoice.seller.id);
  // Loaded on first use: pdfkit's start-up (font metrics, line-breaking tables) would otherwise double the cold start
  // of the function, and errors (a 404) never need it.
  const { renderInvoicePdf } = await import('./render');
  const pdf = await renderInvoicePdf(invoice, {
    brandColor: entity?.brand_color ?? null,
    logoUrl: entity?.logo_url ?? null,
    language: entity?.language,
    timezone: entity?.timezone,
  });
  return binaryResponse(pdf, 'application/pdf', `${invoice.number ?? invoice.id}.pdf`);
}
