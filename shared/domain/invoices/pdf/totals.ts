/** Below the lines: the totals (discounts, tax by rate, paid and due), then the notes. */
import type { Invoice } from '../invoice';
import type { Palette } from './branding';
import { legalMentions, paymentWay, taxLabel, type Words } from './labels';
import type { CustomerItem } from '../../customers/customer';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import { band, contentWidth, left, measure, MUTED, room, rule, text, widthOf, type TextStyle } from './layout';
import type { PdfDocument } from './pdfkit';
import { lineGross } from './table';

type Row = { label: string; amount: number; strong?: 'total' | 'due'; minus?: boolean };

/** Tax per rate, from the lines (they add up to the invoice's tax amount), in the order the rates first appear. */
export function taxByRate(invoice: Pick<Invoice, 'line_items' | 'tax_amount' | 'tax_rate'>): { rate: number; amount: number }[] {
  if (invoice.line_items.length === 0) return [{ rate: invoice.tax_rate, amount: invoice.tax_amount }];
  const byRate = new Map<number, number>();
  for (const line of invoice.line_items) byRate.set(line.tax_rate, (byRate.get(line.tax_rate) ?? 0) + line.tax_amount);
  return [...byRate].map(([rate, amount]) => ({ rate, amount }));
}

function discountRows(invoice: Invoice, { t, f }: Words): Row[] {
  if (invoice.discount_amount === 0) return [];
  const coupons = invoice.coupons.filter((c) => c.discount_amount > 0);
  const rows: Row[] = coupons.map((c) => ({
    label: t('pdf.discount_named', { name: `${c.name}${c.discount_percent !== null ? ` (${f.percent(c.discount_percent)})` : ''}` }),
    amount: c.discount_amount,
    minus: true,
  }));
  const rest = invoice.discount_amount - coupons.reduce((sum, c) => sum + c.discount_amount, 0);
  if (rest > 0) rows.push({ label: t('doc.discount'), amount: rest, minus: true });
  const subtotal = invoice.line_items.reduce((sum, line) => sum + lineGross(line), 0);
  return [{ label: t('pdf.subtotal'), amount: subtotal }, ...rows];
}

export function totalRows(invoice: Invoice, words: Words): Row[] {
  const { t } = words;
  return [
    ...discountRows(invoice, words),
    { label: t('pdf.total_excl_tax'), amount: invoice.amount_excluding_tax },
    ...taxByRate(invoice).map(({ rate, amount }) => ({ label: taxLabel(rate, words), amount })),
    { label: t('doc.total'), amount: invoice.total_amount, strong: 'total' },
    ...settlementRows(invoice, words),
    { label: t('doc.amount_due'), amount: invoice.amount_due, strong: 'due' },
  ];
}

/**
 * Between the total and the amount due, what settled part of it, so the document adds up on paper: each payment
 * with its date and way (a wallet's too), what was paid otherwise, and what credit notes settled. Without any, the
 * amount paid, 0.
 */
function settlementRows(invoice: Invoice, words: Words): Row[] {
  const { t, f } = words;
  const payments = invoice.type === 'credit_note' ? [] : invoice.transactions.filter((tx) => tx.type === 'payment' && tx.status === 'succeeded');
  const rows: Row[] = payments.map((tx) => ({ label: t('pdf.payment_row', { date: f.date(tx.process_at), method: paymentWay(tx.payment_method, words) }), amount: tx.amount }));
  const otherwise = invoice.amount_paid - payments.reduce((sum, tx) => sum + tx.amount, 0);
  if (otherwise !== 0 || rows.length === 0) rows.push({ label: t('pdf.amount_paid'), amount: otherwise });
  if (invoice.amount_credited > 0) rows.push({ label: t('doc.amount_credited'), amount: invoice.amount_credited });
  return rows;
}


const ROW_HEIGHT = 16;
const INSET = 6;

/** A totals row as printed: its label, its amount formatted for the reader, and whether it is the total or the due. */
export interface PrintedRow {
  label: string;
  printed: string;
  strong?: 'total' | 'due';
}

/** An invoice's totals rows, formatted (discounts printed negative). */
export const invoiceTotals = (invoice: Invoice, words: Words): PrintedRow[] =>
  totalRows(invoice, words).map((row) => ({ label: row.label, strong: row.strong, printed: words.f.money(row.minus ? -row.amount : row.amount, invoice.currency) }));

/**
 * The totals block on the right, from `y`; returns the y below it. Its amount column is as wide as its widest
 * amount, the block as wide as its longest label needs (half the width at least, three quarters at most); a label
 * longer still wraps between its words, and its row grows with it.
 */
export function totals(doc: PdfDocument, rows: PrintedRow[], y: number, colors: Palette): number {
  if (rows.length === 0) return y;
  const bold: TextStyle = { bold: true };
  const amountWidth = Math.max(...rows.map((row) => widthOf(doc, row.printed, bold)));
  const labelNeeds = Math.max(...rows.map((row) => widthOf(doc, row.label, bold)));
  const width = Math.min(contentWidth(doc) * 0.75, Math.max(contentWidth(doc) * 0.5, labelNeeds + amountWidth + 4 * INSET));
  const x = left(doc) + contentWidth(doc) - width;
  const labelWidth = width - amountWidth - 4 * INSET;
  const heights = rows.map((row) => Math.max(ROW_HEIGHT, measure(doc, row.label, x + INSET, { bold: row.strong !== undefined, width: labelWidth }) + 5));
  let at = room(doc, y + 10, heights.reduce((sum, h) => sum + h, 0) + 10);
  rows.forEach((row, i) => {
    const height = heights[i]!;
    if (row.strong === 'total') rule(doc, at - 2, colors.accent, x, width);
    if (row.strong === 'due') band(doc, x, at - 2, width, height, colors.accent);
    const style: TextStyle = { bold: row.strong !== undefined, color: row.strong === 'due' ? colors.onAccent : undefined };
    text(doc, row.label, x + INSET, at + 2, { ...style, width: labelWidth });
    text(doc, row.printed, x + width - INSET - amountWidth - INSET, at + 2, { ...style, width: amountWidth + INSET, align: 'right' });
    at += height;
  });
  return at;
}

/** The invoice's notes: the legal mentions (labels.ts `legalMentions`), the custom note and the additional information. */
export const invoiceNotes = (invoice: Invoice, words: Words, entity: EntityItem | null = null, customer: CustomerItem | null = null): string[] =>
  legalMentions(invoice, entity, customer, words.t).map((m) => m.text);

/** Paragraphs in muted text below the totals, each kept on one page. */
export function notes(doc: PdfDocument, paragraphs: string[], y: number): number {
  let at = y + 16;
  for (const paragraph of paragraphs) {
    at = room(doc, at, measure(doc, paragraph, left(doc)));
    at = text(doc, paragraph, left(doc), at, { color: MUTED }) + 8;
  }
  return at;
}
