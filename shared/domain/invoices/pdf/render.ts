import type { Language } from '../../../i18n/catalog';
import type { CustomerItem } from '../../customers/customer';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import type { Invoice } from '../invoice';
import { palette, type Branding } from './branding';
import { attachFacturX, facturXOptions } from './facturx';
import { embeddedFonts } from './fonts';
import { parties, titleBand } from './header';
import { beyondWinAnsi, documentNumber, documentTitle, wordsFor } from './labels';
import { FOOTER_SPACE, MARGIN, room, runningFooters } from './layout';
import { createDocument, toBuffer } from './pdfkit';
import { rowHeight, tableColumns, tableHeading, tableRow } from './table';
import { notes, totals } from './totals';

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
 * The invoice, credit note or document as an A4 PDF: title and number on the brand colour, seller and customer,
 * dates, the lines (the table's heading repeated on every page it runs onto), discounts, tax by rate, totals,
 * paid and due, the legal mentions and notes, and the invoice's footer with page numbers on every page. Nothing is
 * fetched; the built-in fonts print WinAnsi, and a Factur-X, or a document with letters beyond it (Polish…), embeds
 * Roboto (./fonts.ts). The same invoice gives the same bytes.
 */
export async function renderInvoicePdf(invoice: Invoice, branding: Branding, options: RenderOptions = {}): Promise<Buffer> {
  const colors = palette(branding.brandColor);
  const created = new Date(invoice.updated_at ?? invoice.created_at);
  const words = wordsFor(options.language, branding.timezone);
  const title = `${documentTitle(invoice, words.t)} ${documentNumber(invoice, words.t)}`;
  const doc = createDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: FOOTER_SPACE },
    bufferPages: true,
    lang: words.language,
    info: { Title: title, Author: invoice.seller.name, CreationDate: created },
    ...(options.facturx && facturXOptions()),
  }, options.facturx || words.beyondWinAnsi || beyondWinAnsi(JSON.stringify(invoice)) ? embeddedFonts() : undefined);
  const entity = options.entity ?? null;
  let y = parties(doc, invoice, titleBand(doc, invoice, colors, words) + 24, words, entity) + 20;
  const cells = tableColumns(doc, invoice, words);
  const heading = (top: number) => tableHeading(doc, top, cells, colors, words);
  y = heading(y);
  for (const line of invoice.line_items) {
    y = room(doc, y, rowHeight(doc, cells, line, invoice.currency, words), heading);
    y = tableRow(doc, y, cells, line, invoice.currency, words);
  }
  notes(doc, invoice, totals(doc, invoice, y, colors, words), words, entity, options.customer ?? null);
  runningFooters(doc, invoice.footer, words);
  if (options.facturx) attachFacturX(doc, options.facturx.xml, { title, author: invoice.seller.name, created });
  return toBuffer(doc);
}
