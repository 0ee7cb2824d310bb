import type { Invoice } from '../invoice';
import { palette, type Branding } from './branding';
import { parties, titleBand } from './header';
import { documentNumber, documentTitle } from './labels';
import { FOOTER_SPACE, MARGIN, room, runningFooters } from './layout';
import { createDocument, toBuffer } from './pdfkit';
import { rowHeight, tableHeading, tableRow } from './table';
import { notes, totals } from './totals';

export type { Branding } from './branding';

/**
 * The invoice, credit note or document as an A4 PDF: title and number on the brand colour, seller and customer,
 * dates, the lines (the table's heading repeated on every page it runs onto), discounts, tax by rate, totals,
 * paid and due, the notes, and the invoice's footer with page numbers on every page. Built-in Helvetica only;
 * nothing is read from disk or fetched. The same invoice gives the same bytes.
 */
export async function renderInvoicePdf(invoice: Invoice, branding: Branding): Promise<Buffer> {
  const colors = palette(branding.brandColor);
  const doc = createDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: FOOTER_SPACE },
    bufferPages: true,
    ...(branding.language && { lang: branding.language }),
    info: {
      Title: `${documentTitle(invoice)} ${documentNumber(invoice)}`,
      Author: invoice.seller.name,
      CreationDate: new Date(invoice.updated_at ?? invoice.created_at),
    },
  });
  let y = parties(doc, invoice, titleBand(doc, invoice, colors) + 24, branding.timezone) + 20;
  const heading = (top: number) => tableHeading(doc, top, colors);
  y = heading(y);
  for (const line of invoice.line_items) {
    y = room(doc, y, rowHeight(doc, line, invoice.currency, branding.timezone), heading);
    y = tableRow(doc, y, line, invoice.currency, branding.timezone);
  }
  notes(doc, invoice, totals(doc, invoice, y, colors));
  runningFooters(doc, invoice.footer);
  return toBuffer(doc);
}
