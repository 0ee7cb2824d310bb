/** The line items table: one row per line, its heading repeated on every page it runs onto. */
import type { MessageKey } from '../../../i18n/catalog';
import type { InvoiceLineItem } from '../invoice';
import type { Palette } from './branding';
import type { Words } from './labels';
import { band, contentWidth, left, measure, MUTED, rule, text, type TextStyle } from './layout';
import type { PdfDocument } from './pdfkit';

interface Column {
  title: MessageKey;
  /** Share of the content width. */
  share: number;
  align: 'left' | 'right';
}

const COLUMNS: Column[] = [
  { title: 'doc.description', share: 0.42, align: 'left' },
  { title: 'pdf.qty', share: 0.09, align: 'right' },
  { title: 'doc.unit_price', share: 0.17, align: 'right' },
  { title: 'pdf.tax_column', share: 0.1, align: 'right' },
  { title: 'pdf.amount_excl_tax', share: 0.22, align: 'right' },
];
const GAP = 6;
const PAD = 5;

interface Cell {
  x: number;
  width: number;
  align: 'left' | 'right';
}

function cells(doc: PdfDocument): Cell[] {
  let x = left(doc);
  return COLUMNS.map((column) => {
    const width = contentWidth(doc) * column.share;
    const cell = { x: x + (column.align === 'left' ? PAD : 0), width: width - GAP - PAD, align: column.align };
    x += width;
    return cell;
  });
}

/** The heading row on the brand colour; returns the y below it. */
export function tableHeading(doc: PdfDocument, y: number, colors: Palette, { t }: Words): number {
  const style: TextStyle = { size: 8, bold: true, color: colors.onAccent };
  const height = 18;
  band(doc, left(doc), y, contentWidth(doc), height, colors.accent);
  cells(doc).forEach((cell, i) => text(doc, t(COLUMNS[i]!.title), cell.x, y + 5, { ...style, width: cell.width, align: cell.align }));
  return y + height;
}

/** Name, then the description and the service period when the line shows them. */
function describe(line: InvoiceLineItem, { t, f }: Words): { name: string; details: string[] } {
  const period = line.display_service_period && line.period_starts_at && line.period_ends_at
    ? t('pdf.service_period', { from: f.date(line.period_starts_at), to: f.date(line.period_ends_at) })
    : null;
  return { name: line.name, details: [line.description, period].filter((d): d is string => !!d && d.trim() !== '') };
}

/** Before coupons: the discounts follow the table, so the rows add up to the subtotal. */
export const lineGross = (line: InvoiceLineItem): number => line.amount_excluding_tax + line.discount_amount;

/** The right-hand columns of a line: units, unit price (when shown), tax rate, amount. */
const figures = (line: InvoiceLineItem, currency: string, { f }: Words): string[] => [
  f.number(line.units_count),
  line.display_unit_amount ? f.money(line.unit_amount, currency) : '',
  f.percent(line.tax_rate),
  f.money(lineGross(line), currency),
];

const NAME: TextStyle = { bold: true };
const DETAIL: TextStyle = { size: 7.5, color: MUTED };

/** The height of a line's row, to keep it whole on one page. */
export function rowHeight(doc: PdfDocument, line: InvoiceLineItem, currency: string, words: Words): number {
  const [first, ...rest] = cells(doc) as [Cell, ...Cell[]];
  const { name, details } = describe(line, words);
  const described = [name, ...details].reduce((sum, value, i) => sum + measure(doc, value, first.x, { ...(i === 0 ? NAME : DETAIL), width: first.width }), 0);
  const numbers = figures(line, currency, words).map((value, i) => measure(doc, value, rest[i]!.x, { width: rest[i]!.width }));
  return Math.max(described, ...numbers) + 2 * PAD;
}

/** One row whose top is `y`; returns the y below it. */
export function tableRow(doc: PdfDocument, y: number, line: InvoiceLineItem, currency: string, words: Words): number {
  const [first, ...rest] = cells(doc) as [Cell, ...Cell[]];
  const { name, details } = describe(line, words);
  const top = y + PAD;
  const described = [name, ...details].reduce((at, value, i) => text(doc, value, first.x, at, { ...(i === 0 ? NAME : DETAIL), width: first.width }), top);
  const numbers = figures(line, currency, words).map((value, i) => text(doc, value, rest[i]!.x, top, { width: rest[i]!.width, align: 'right' }));
  const end = Math.max(described, ...numbers) + PAD;
  rule(doc, end);
  return end;
}
