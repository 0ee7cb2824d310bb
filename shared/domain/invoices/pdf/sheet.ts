/**
 * One layout for every document the service prints (invoice, credit note, receipt, quote): a band with the title,
 * the parties and facts, a table of lines, a totals block, notes and a running footer. Each kind says what goes
 * where (render.ts, receipt.ts, quote.ts); this file draws it with the measured primitives of layout.ts.
 */
import { palette } from './branding';
import { attachFacturX, facturXOptions } from './facturx';
import { embeddedFonts } from './fonts';
import { parties, titleBand, type Heading, type Parties } from './header';
import { beyondWinAnsi, type Words } from './labels';
import { FOOTER_SPACE, MARGIN, room, runningFooters } from './layout';
import type { Logo } from './logo';
import { createDocument, toBuffer } from './pdfkit';
import { rowHeight, tableColumns, tableHeading, tableRow, type Table } from './table';
import { notes, totals, type PrintedRow } from './totals';

export interface Sheet {
  heading: Heading;
  parties: Parties;
  table: Table;
  totals: PrintedRow[];
  notes: string[];
  footer: string;
  /** The document's metadata: its title, its author (the seller), when it was made. */
  info: { title: string; author: string; created: Date };
}

export interface SheetLook {
  brandColor: string | null;
  logo?: Logo | null;
  words: Words;
  /** Factur-X: a PDF/A-3b with this CII embedded as factur-x.xml (./facturx.ts). */
  facturx?: { xml: string };
}

/**
 * The sheet as an A4 PDF. Nothing is fetched; the built-in fonts print WinAnsi, and a Factur-X, or a document with
 * letters beyond it (Polish…), embeds Roboto (./fonts.ts). The same sheet gives the same bytes.
 */
export async function renderSheet(sheet: Sheet, { brandColor, logo, words, facturx }: SheetLook): Promise<Buffer> {
  const colors = palette(brandColor);
  const embed = facturx || words.beyondWinAnsi || beyondWinAnsi(JSON.stringify(sheet));
  const doc = createDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: FOOTER_SPACE },
    bufferPages: true,
    lang: words.language,
    info: { Title: sheet.info.title, Author: sheet.info.author, CreationDate: sheet.info.created },
    ...(facturx && facturXOptions()),
  }, embed ? embeddedFonts() : undefined);
  let y = parties(doc, sheet.parties, titleBand(doc, sheet.heading, colors) + 24, words, logo ?? null) + 20;
  const cells = tableColumns(doc, sheet.table);
  const heading = (top: number) => tableHeading(doc, top, sheet.table, cells, colors);
  y = heading(y);
  for (const row of sheet.table.rows) {
    y = room(doc, y, rowHeight(doc, cells, row), heading);
    y = tableRow(doc, y, cells, row);
  }
  notes(doc, sheet.notes, totals(doc, sheet.totals, y, colors));
  runningFooters(doc, sheet.footer, words);
  if (facturx) attachFacturX(doc, facturx.xml, sheet.info);
  return toBuffer(doc);
}
