/** The top of the first page: the title on the brand colour, then seller, customer and the document's dates. */
import type { Invoice } from '../invoice';
import type { Palette } from './branding';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import { addressLines, documentNumber, documentTitle, formatDate, LABELS } from './labels';
import { band, contentWidth, left, lines, MUTED, text, type TextStyle } from './layout';
import type { PdfDocument } from './pdfkit';

const BAND_HEIGHT = 96;
const LABEL: TextStyle = { size: 7.5, bold: true, color: MUTED };

/** The full-width band; returns the y below it. */
export function titleBand(doc: PdfDocument, invoice: Invoice, colors: Palette): number {
  band(doc, 0, 0, doc.page.width, BAND_HEIGHT, colors.accent);
  const half = contentWidth(doc) / 2;
  const below = text(doc, documentTitle(invoice), left(doc), 30, { size: 22, bold: true, color: colors.onAccent, width: half });
  text(doc, documentNumber(invoice), left(doc), below + 2, { size: 11, color: colors.onAccent, width: half });
  text(doc, invoice.seller.name, left(doc) + half, 34, { size: 12, bold: true, color: colors.onAccent, width: half, align: 'right' });
  return BAND_HEIGHT;
}

function party(doc: PdfDocument, x: number, y: number, width: number, label: string, name: string, details: string[]): number {
  const below = text(doc, label, x, y, { ...LABEL, width });
  const named = text(doc, name, x, below + 3, { bold: true, size: 10, width });
  return lines(doc, details, x, named + 1, { width });
}

/** The seller's address and the identifiers the law wants on an invoice: legal form, registration, VAT, bank account. */
function sellerLines(seller: Invoice['seller'], entity: EntityItem | null): string[] {
  const label = LABELS.seller;
  const bank = entity?.bank_account;
  return [
    ...addressLines(seller.address, seller.name),
    entity?.legal_form,
    entity?.registration_number && `${label.registration} ${entity.registration_number}`,
    seller.tax_id && `${label.taxId}: ${seller.tax_id}`,
    // The IBAN's print format: groups of four.
    bank?.iban && `${label.iban}: ${bank.iban.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ')}`,
    bank?.bic && `${label.bic}: ${bank.bic}`,
  ].filter((l): l is string => !!l);
}

function customerLines(customer: Invoice['customer']): string[] {
  const ids = [
    customer.vat_number && `VAT number: ${customer.vat_number}`,
    customer.tax_id && customer.tax_id !== customer.vat_number && `Tax ID: ${customer.tax_id}`,
  ];
  return [...addressLines(customer.address, customer.name), customer.email, ...ids].filter((l): l is string => !!l);
}

function dates(invoice: Invoice, timezone?: string | null): [string, string][] {
  const day = (at: string | null) => (at ? formatDate(at, timezone) : null);
  const period = invoice.period_starts_at && invoice.period_ends_at ? `${day(invoice.period_starts_at)} to ${day(invoice.period_ends_at)}` : null;
  const rows: [string, string | null][] = [
    ['Issue date', day(invoice.emitted_at)],
    ['Due date', invoice.type === 'credit_note' ? null : day(invoice.due_at)],
    ['Period', period],
    ['Reference', invoice.reference],
    ['Purchase order', invoice.purchase_order],
    ['Credit note for', invoice.type === 'credit_note' ? (invoice.original_invoice_number ?? invoice.original_invoice_id) : null],
  ];
  return rows.filter((row): row is [string, string] => !!row[1]);
}

/** Seller, customer and dates side by side from `y`; returns the y below the tallest. */
export function parties(doc: PdfDocument, invoice: Invoice, y: number, timezone?: string | null, entity: EntityItem | null = null): number {
  const width = contentWidth(doc);
  const column = width * 0.34;
  const seller = party(doc, left(doc), y, column, 'FROM', invoice.seller.name, sellerLines(invoice.seller, entity));
  const customer = party(doc, left(doc) + width * 0.36, y, column, 'BILL TO', invoice.customer.name, customerLines(invoice.customer));
  const x = left(doc) + width * 0.72;
  const facts = dates(invoice, timezone).reduce((at, [label, value]) => {
    const labelled = text(doc, label, x, at, { ...LABEL, width: width * 0.28, align: 'right' });
    return text(doc, value, x, labelled + 1, { width: width * 0.28, align: 'right' }) + 5;
  }, y);
  return Math.max(seller, customer, facts);
}
