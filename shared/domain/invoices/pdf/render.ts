import type { Language } from '../../../i18n/catalog';
import type { CustomerItem } from '../../customers/customer';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import type { Invoice } from '../invoice';
import type { Branding } from './branding';
import { invoiceHeading, invoiceParties } from './header';
import { documentNumber, documentTitle, wordsFor } from './labels';
import { invoiceTable } from './table';
import { invoiceNotes, invoiceTotals } from './totals';

export type { Branding } from './branding';

export interface RenderOptions {
  /** The reader's language (the customer's, else the entity's: see download.ts); English when not given. */
  language?: Language;
  /** The seller's entity: its legal form, registration number, bank account and late-payment terms are printed. */
  entity?: EntityItem | null;
  /** The customer: whether it is a business decides the French B2B mentions. */
  customer?: CustomerItem | null;
  /** Factur-X: a PDF/A-3b with this CII embedded as factur-x.xml (./facturx.ts). */
  facturx?: { xml: string };
}

/**
 * The invoice, credit note or document as an A4 PDF (sheet.ts): title and number on the brand colour (PAID with
 * its day and way when paid), the logo, seller and customer, dates, the lines, discounts, tax by rate, totals, what
 * settled them and the amount due, the legal mentions and notes, and the invoice's footer with page numbers on
 * every page. The same invoice gives the same bytes.
 */
export async function renderInvoicePdf(invoice: Invoice, branding: Branding, options: RenderOptions = {}): Promise<Buffer> {
  const words = wordsFor(options.language, branding.timezone);
  const entity = options.entity ?? null;
  // The drawing is a module of its own in a Lambda (#lazy/…, lib/bundling.ts): parsed on the first PDF, not at every start.
  const { renderSheet } = await import('#lazy/pdf-sheet');
  return renderSheet({
    heading: invoiceHeading(invoice, words),
    parties: invoiceParties(invoice, words, entity),
    table: invoiceTable(invoice, words),
    totals: invoiceTotals(invoice, words),
    notes: invoiceNotes(invoice, words, entity, options.customer ?? null),
    footer: invoice.footer,
    info: { title: `${documentTitle(invoice, words.t)} ${documentNumber(invoice, words.t)}`, author: invoice.seller.name, created: new Date(invoice.updated_at ?? invoice.created_at) },
  }, { brandColor: branding.brandColor, logo: branding.logo, words, facturx: options.facturx });
}
