/** The top of the first page: the title on the brand colour, then seller, customer and the document's dates. */
import type { Invoice } from '../invoice';
import type { Palette } from './branding';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import { addressLines, documentNumber, documentTitle, paymentWay, type Words } from './labels';
import { band, contentWidth, left, lines, MUTED, text, widthOf, type TextStyle } from './layout';
import type { PdfDocument } from './pdfkit';

const BAND_HEIGHT = 96;
const LABEL: TextStyle = { size: 7.5, bold: true, color: MUTED };

/** The full-width band; returns the y below it. */
export function titleBand(doc: PdfDocument, invoice: Invoice, colors: Palette, words: Words): number {
  const { t } = words;
  band(doc, 0, 0, doc.page.width, BAND_HEIGHT, colors.accent);
  const half = contentWidth(doc) / 2;
  const below = text(doc, documentTitle(invoice, t), left(doc), 30, { size: 22, bold: true, color: colors.onAccent, width: half });
  text(doc, documentNumber(invoice, t), left(doc), below + 2, { size: 11, color: colors.onAccent, width: half });
  const named = text(doc, invoice.seller.name, left(doc) + half, 30, { size: 12, bold: true, color: colors.onAccent, width: half, align: 'right' });
  const paid = paidMark(invoice, words);
  if (paid) {
    const stamped = text(doc, paid.stamp, left(doc) + half, named + 4, { size: 13, bold: true, color: colors.onAccent, width: half, align: 'right' });
    text(doc, paid.detail, left(doc) + half, stamped + 1, { size: 8.5, color: colors.onAccent, width: half, align: 'right' });
  }
  return BAND_HEIGHT;
}

/** A paid invoice says so at the top: "PAID", the day it was settled and how (its last payment's way). */
export function paidMark(invoice: Invoice, words: Words): { stamp: string; detail: string } | null {
  if (invoice.type !== 'invoice' || invoice.status !== 'paid') return null;
  const last = invoice.transactions.filter((tx) => tx.type === 'payment' && tx.status === 'succeeded').at(-1);
  const day = words.f.date(invoice.settled_at ?? last?.process_at ?? invoice.updated_at);
  const paidOn = words.t('pdf.paid_on', { date: day });
  return { stamp: words.t('pdf.paid_stamp'), detail: last ? `${paidOn}, ${paymentWay(last.payment_method, words)}` : paidOn };
}

function party(doc: PdfDocument, x: number, y: number, width: number, label: string, name: string, details: string[]): number {
  const below = text(doc, label, x, y, { ...LABEL, width });
  const named = text(doc, name, x, below + 3, { bold: true, size: 10, width });
  return lines(doc, details, x, named + 1, { width });
}

/** The seller's address and the identifiers the law wants on an invoice: legal form, registration, VAT, bank account. */
function sellerLines(seller: Invoice['seller'], entity: EntityItem | null, { t, language }: Words): string[] {
  const bank = entity?.bank_account;
  return [
    ...addressLines(seller.address, seller.name, language),
    entity?.legal_form,
    entity?.registration_number && `${t('pdf.registration')} ${entity.registration_number}`,
    seller.tax_id && `${t('doc.tax_id')}: ${seller.tax_id}`,
    // The IBAN's print format: groups of four. IBAN and BIC are the same words in every language.
    bank?.iban && `IBAN: ${bank.iban.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ')}`,
    bank?.bic && `BIC: ${bank.bic}`,
  ].filter((l): l is string => !!l);
}

function customerLines(customer: Invoice['customer'], { t, language }: Words): string[] {
  const ids = [
    customer.vat_number && `${t('pdf.vat_number')}: ${customer.vat_number}`,
    customer.tax_id && customer.tax_id !== customer.vat_number && `${t('doc.tax_id')}: ${customer.tax_id}`,
  ];
  return [...addressLines(customer.address, customer.name, language), customer.email, ...ids].filter((l): l is string => !!l);
}

function dates(invoice: Invoice, { t, f }: Words): [string, string][] {
  const day = (at: string | null) => (at ? f.date(at) : null);
  const period = invoice.period_starts_at && invoice.period_ends_at ? t('pdf.period_range', { from: day(invoice.period_starts_at)!, to: day(invoice.period_ends_at)! }) : null;
  const rows: [string, string | null][] = [
    [t('doc.issued_at'), day(invoice.emitted_at)],
    [t('doc.due_at'), invoice.type === 'credit_note' ? null : day(invoice.due_at)],
    [t('pdf.period'), period],
    [t('pdf.reference'), invoice.reference],
    [t('pdf.purchase_order'), invoice.purchase_order],
    [t('pdf.credit_note_for'), invoice.type === 'credit_note' ? (invoice.original_invoice_number ?? invoice.original_invoice_id) : null],
  ];
  return rows.filter((row): row is [string, string] => !!row[1]);
}

/** Seller, customer and dates side by side from `y`; returns the y below the tallest. */
export function parties(doc: PdfDocument, invoice: Invoice, y: number, words: Words, entity: EntityItem | null = null): number {
  const width = contentWidth(doc);
  const facts = dates(invoice, words);
  // The dates' column as wide as its longest label or value (a quarter to a third of the width), the parties the rest.
  const factsWidth = Math.min(width / 3, Math.max(width / 4, ...facts.flatMap(([label, value]) => [widthOf(doc, label, LABEL), widthOf(doc, value)])));
  const gap = width * 0.02;
  const column = (width - factsWidth - 2 * gap) / 2;
  const seller = party(doc, left(doc), y, column, words.t('doc.seller').toLocaleUpperCase(words.language), invoice.seller.name, sellerLines(invoice.seller, entity, words));
  const customer = party(doc, left(doc) + column + gap, y, column, words.t('doc.customer').toLocaleUpperCase(words.language), invoice.customer.name, customerLines(invoice.customer, words));
  const x = left(doc) + width - factsWidth;
  const below = facts.reduce((at, [label, value]) => {
    const labelled = text(doc, label, x, at, { ...LABEL, width: factsWidth, align: 'right' });
    return text(doc, value, x, labelled + 1, { width: factsWidth, align: 'right' }) + 5;
  }, y);
  return Math.max(seller, customer, below);
}
