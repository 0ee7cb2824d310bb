import type { Ctx } from '../../context';
import { NotFound } from '../../errors';
import type { InvoiceItem } from '../invoices/invoice';
import { findInvoiceItem } from '../invoices/read';

/** Statuses a customer never sees: a draft is not issued yet, a closed draft never was. */
const HIDDEN = new Set(['draft', 'closed']);

export const documentUnavailable = (id: string) => new NotFound('document', id);

/**
 * The invoice (or credit note) of a link, as long as the link's generation is the invoice's (revocation). Apart from
 * invoice-page.ts so the PDF's function does not bundle the payment path.
 */
export async function findLinkedInvoice(ctx: Ctx, id: string, generation: number): Promise<InvoiceItem> {
  const item = await findInvoiceItem(ctx, id).catch(() => undefined);
  if (!item || HIDDEN.has(item.status) || (item.link_generation ?? 0) !== generation) throw documentUnavailable(id);
  return item;
}
