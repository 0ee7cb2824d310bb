/**
 * The lines table of every document (invoice, credit note, receipt, quote): one row per line, its heading repeated on
 * every page it runs onto. The document says what its columns are and what each row prints; this file measures them.
 */
import type { Invoice, InvoiceLineItem } from '../invoice';
import type { Palette } from './branding';
import type { Words } from './labels';
import { band, contentWidth, left, measure, MUTED, rule, text, widestWord, widthOf, type TextStyle } from './layout';
import type { PdfDocument } from './pdfkit';

export interface Column {
  title: string;
  /** The least share of the content width it takes, measured text aside. */
  share: number;
}

/** A row: its name and details in the first (wrapping) column, then one figure per other column (never wrapped). */
export interface TableRow {
  name: string;
  details: string[];
  figures: string[];
}

/** The first column describes, the others hold figures. */
export interface Table {
  columns: [Column, ...Column[]];
  rows: TableRow[];
}

const GAP = 6;
const PAD = 5;
/** The description keeps at least this share of the width; past it, figures too wide are printed smaller (layout.ts). */
const DESCRIPTION_FLOOR = 0.3;
const HEADING: TextStyle = { size: 8, bold: true };

export interface Cell {
  x: number;
  width: number;
  align: 'left' | 'right';
}

/**
 * The columns of one table, from what it prints: each figure column as wide as its widest figure and the widest word
 * of its heading (at least its share), the description the rest. A heading wraps between its words only; a figure
 * never wraps.
 */
export function tableColumns(doc: PdfDocument, table: Table): Cell[] {
  const content = contentWidth(doc);
  const needed = table.columns.slice(1).map((column, i) => Math.max(
    column.share * content,
    widestWord(doc, column.title, HEADING) + GAP + PAD,
    ...table.rows.map((row) => widthOf(doc, row.figures[i] ?? '') + GAP + PAD),
  ));
  const room = content * (1 - DESCRIPTION_FLOOR);
  const total = needed.reduce((sum, width) => sum + width, 0);
  const widths = [content - Math.min(total, room), ...needed.map((width) => (total > room ? (width * room) / total : width))];
  let x = left(doc);
  return widths.map((width, i) => {
    const align = i === 0 ? 'left' : 'right';
    const cell: Cell = { x: x + (align === 'left' ? PAD : 0), width: width - GAP - PAD, align };
    x += width;
    return cell;
  });
}

/** The heading row on the brand colour, as tall as its tallest heading; returns the y below it. */
export function tableHeading(doc: PdfDocument, y: number, table: Table, cells: Cell[], colors: Palette): number {
  const style: TextStyle = { ...HEADING, color: colors.onAccent };
  const height = Math.max(...cells.map((cell, i) => measure(doc, table.columns[i]!.title, cell.x, { ...style, width: cell.width }))) + 2 * PAD;
  band(doc, left(doc), y, contentWidth(doc), height, colors.accent);
  cells.forEach((cell, i) => text(doc, table.columns[i]!.title, cell.x, y + PAD, { ...style, width: cell.width, align: cell.align }));
  return y + height;
}

const NAME: TextStyle = { bold: true };
const DETAIL: TextStyle = { size: 7.5, color: MUTED };
const FIGURE: TextStyle = { nowrap: true };

/** The height of a row, to keep it whole on one page. */
export function rowHeight(doc: PdfDocument, cells: Cell[], row: TableRow): number {
  const [first, ...rest] = cells as [Cell, ...Cell[]];
  const described = [row.name, ...row.details].reduce((sum, value, i) => sum + measure(doc, value, first.x, { ...(i === 0 ? NAME : DETAIL), width: first.width }), 0);
  const numbers = row.figures.map((value, i) => measure(doc, value, rest[i]!.x, { ...FIGURE, width: rest[i]!.width }));
  return Math.max(described, ...numbers) + 2 * PAD;
}

/** One row whose top is `y`; returns the y below it. */
export function tableRow(doc: PdfDocument, y: number, cells: Cell[], row: TableRow): number {
  const [first, ...rest] = cells as [Cell, ...Cell[]];
  const top = y + PAD;
  const described = [row.name, ...row.details].reduce((at, value, i) => text(doc, value, first.x, at, { ...(i === 0 ? NAME : DETAIL), width: first.width }), top);
  const numbers = row.figures.map((value, i) => text(doc, value, rest[i]!.x, top, { ...FIGURE, width: rest[i]!.width, align: 'right' }));
  const end = Math.max(described, ...numbers) + PAD;
  rule(doc, end);
  return end;
}

/** Before coupons: the discounts follow the table, so the rows add up to the subtotal. */
export const lineGross = (line: InvoiceLineItem): number => line.amount_excluding_tax + line.discount_amount;

/** An invoice's lines: name, description and service period; units, unit price (when shown), tax rate, amount. */
export function invoiceTable(invoice: Pick<Invoice, 'line_items' | 'currency'>, { t, f }: Words): Table {
  return {
    columns: [
      { title: t('doc.description'), share: 0.42 },
      { title: t('pdf.qty'), share: 0.09 },
      { title: t('doc.unit_price'), share: 0.17 },
      { title: t('pdf.tax_column'), share: 0.1 },
      { title: t('pdf.amount_excl_tax'), share: 0.22 },
    ],
    rows: invoice.line_items.map((line) => {
      const period = line.display_service_period && line.period_starts_at && line.period_ends_at
        ? t('pdf.service_period', { from: f.date(line.period_starts_at), to: f.date(line.period_ends_at) })
        : null;
      return {
        name: line.name,
        details: [line.description, period].filter((d): d is string => !!d && d.trim() !== ''),
        figures: [
          f.number(line.units_count),
          line.display_unit_amount ? f.money(line.unit_amount, invoice.currency) : '',
          f.percent(line.tax_rate),
          f.money(lineGross(line), invoice.currency),
        ],
      };
    }),
  };
}
