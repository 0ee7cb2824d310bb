/** The top of the first page: the title on the brand colour, then seller, customer and the document's dates. */
import type { Invoice } from '../invoice';
import type { Palette } from './branding';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import { addressLines, documentNumber, documentTitle, paymentWay, type Words } from './labels';
import { band, contentWidth, left, lines, MUTED, text, widthOf, type TextStyle } from './layout';
import type { PdfDocument } from './pdfkit';
import { drawLogo, type Logo } from './logo';

const BAND_HEIGHT = 96;
const LABEL: TextStyle = { size: 7.5, bold: true, color: MUTED };

/** What the band at the top of a document prints: its title and number, the seller, and a mark such as PAID. */
export interface Heading {
  title: string;
  number: string;
  sellerName: string;
  mark: { stamp: string; detail: string } | null;
}

export const invoiceHeading = (invoice: Invoice, words: Words): Heading => ({
  title: documentTitle(invoice, words.t), number: documentNumber(invoice, words.t), sellerName: invoice.seller.name, mark: paidMark(invoice, words),
});

/** The full-width band; returns the y below it. */
export function titleBand(doc: PdfDocument, heading: Heading, colors: Palette): number {
  band(doc, 0, 0, doc.page.width, BAND_HEIGHT, colors.accent);
  const half = contentWidth(doc) / 2;
  const below = text(doc, heading.title, left(doc), 30, { size: 22, bold: true, color: colors.onAccent, width: half });
  text(doc, heading.number, left(doc), below + 2, { size: 11, color: colors.onAccent, width: half });
  const named = text(doc, heading.sellerName, left(doc) + half, 30, { size: 12, bold: true, color: colors.onAccent, width: half, align: 'right' });
  if (heading.mark) {
    const stamped = text(doc, heading.mark.stamp, left(doc) + half, named + 4, { size: 13, bold: true, color: colors.onAccent, width: half, align: 'right' });
    text(doc, heading.mark.detail, left(doc) + half, stamped + 1, { size: 8.5, color: colors.onAccent, width: half, align: 'right' });
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

/** A party of the document: who sells or who buys, and the lines printed under its name. */
export interface Party {
  name: string;
  lines: string[];
}

function party(doc: PdfDocument, x: number, y: number, width: number, label: string, { name, lines: details }: Party): number {
  const below = text(doc, label, x, y, { ...LABEL, width });
  const named = text(doc, name, x, below + 3, { bold: true, size: 10, width });
  return lines(doc, details, x, named + 1, { width });
}

/** The seller's address and the identifiers the law wants on an invoice: legal form, registration, VAT, bank account. */
export function sellerLines(seller: Pick<Invoice['seller'], 'name' | 'address' | 'tax_id'>, entity: EntityItem | null, { t, language }: Words): string[] {
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

export function customerLines(customer: Invoice['customer'], { t, language }: Words): string[] {
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

/** Seller, customer and the document's facts (dates, references), with the labels they are printed under. */
export interface Parties {
  seller: Party;
  customer: Party;
  facts: [string, string][];
}

export const invoiceParties = (invoice: Invoice, words: Words, entity: EntityItem | null = null): Parties => ({
  seller: { name: invoice.seller.name, lines: sellerLines(invoice.seller, entity, words) },
  customer: { name: invoice.customer.name, lines: customerLines(invoice.customer, words) },
  facts: dates(invoice, words),
});

/**
 * Seller, customer and facts side by side from `y`, the seller's logo (when given) heading its column; returns the
 * y below the tallest.
 */
export function parties(doc: PdfDocument, { seller, customer, facts }: Parties, y: number, words: Words, logo: Logo | null = null): number {
  const width = contentWidth(doc);
  // The facts' column as wide as its longest label or value (a quarter to a third of the width), the parties the rest.
  const factsWidth = Math.min(width / 3, Math.max(width / 4, ...facts.flatMap(([label, value]) => [widthOf(doc, label, LABEL), widthOf(doc, value)])));
  const gap = width * 0.02;
  const column = (width - factsWidth - 2 * gap) / 2;
  const sellerTop = logo ? drawLogo(doc, logo, left(doc), y, column) + 10 : y;
  const sellerBelow = party(doc, left(doc), sellerTop, column, words.t('doc.seller').toLocaleUpperCase(words.language), seller);
  const customerBelow = party(doc, left(doc) + column + gap, y, column, words.t('doc.customer').toLocaleUpperCase(words.language), customer);
  const x = left(doc) + width - factsWidth;
  const below = facts.reduce((at, [label, value]) => {
    const labelled = text(doc, label, x, at, { ...LABEL, width: factsWidth, align: 'right' });
    return text(doc, value, x, labelled + 1, { width: factsWidth, align: 'right' }) + 5;
  }, y);
  return Math.max(sellerBelow, customerBelow, below);
}
