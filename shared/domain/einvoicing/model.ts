/**
 * The EN 16931 semantic model of one invoice or credit note (the business terms BT-… as decimal strings), built
 * once from the stored invoice, its seller's entity and its customer; cii.ts and ubl.ts only lay it out.
 * docs/e-invoicing.md maps every term to its source.
 */
import { RuleViolation } from '../../errors';
import type { CustomerItem } from '../customers/customer';
import type { Invoice, InvoiceAddress } from '../invoices/invoice';
import type { EntityItem } from '../invoicing-entities/invoicing-entity';
import { einvoiceText, formatDate, legalMentions } from '../invoices/pdf/labels';
import { lineCategory, type TaxCategory } from './categories';
import { amountDecimal, PrecisionError, priceDecimal } from './decimal';

export const EN16931_SPECIFICATION = 'urn:cen.eu:en16931:2017';

export interface EPostalAddress { line1: string | null; line2: string | null; city: string | null; zip: string | null; state: string | null; country: string }
export interface EIdentifier { value: string; scheme: string | null }

export interface EParty {
  name: string;
  tradeName: string | null;
  /** BT-30 / BT-47, with its ISO 6523 scheme (0002 SIREN, 0009 SIRET) when known. */
  legalId: EIdentifier | null;
  /** BT-31 / BT-48: a VAT identifier, with its country prefix (BR-CO-09). */
  vatId: string | null;
  /** BT-32: a tax identifier that is not a VAT identifier. */
  taxRegistrationId: string | null;
  /** BT-33: legal form, share capital. */
  legalInfo: string | null;
  email: string | null;
  address: EPostalAddress;
}

export interface ELine {
  id: string;
  name: string;
  description: string | null;
  quantity: string;
  unitCode: string;
  netPrice: string;
  /** BT-149, when the net price is that of the whole quantity (a usage or rounded line). */
  baseQuantity: string | null;
  netAmount: string;
  /** BG-27: the coupons' discount on the line. */
  allowance: string | null;
  category: TaxCategory;
  rate: string | null;
  periodStart: string | null;
  periodEnd: string | null;
}

export interface EVatBreakdown { category: TaxCategory; rate: string | null; base: string; tax: string; exemptionReason: string | null; exemptionCode: string | null }

export interface EInvoice {
  typeCode: '380' | '381';
  number: string;
  /** Dates are YYYY-MM-DD, the seller's calendar days. */
  issueDate: string;
  dueDate: string | null;
  currency: string;
  buyerReference: string | null;
  purchaseOrder: string | null;
  preceding: { number: string; issueDate: string | null } | null;
  /** BG-1: content and UNTDID 4451 subject code. */
  notes: { text: string; subject: string | null }[];
  seller: EParty;
  buyer: EParty;
  payment: { iban: string; bic: string | null; accountName: string | null } | null;
  paymentTerms: string | null;
  period: { start: string; end: string } | null;
  lines: ELine[];
  vat: EVatBreakdown[];
  totals: { lineTotal: string; taxExclusive: string; tax: string; taxInclusive: string; prepaid: string; due: string };
}

export interface EInvoiceSources {
  invoice: Invoice;
  entity: EntityItem | null;
  customer: CustomerItem | null;
  /** A credit note's invoice, for its issue date (BT-26). */
  original: Invoice | null;
}

const VAT_PREFIX = /^(?:[A-Z]{2}|EL)[0-9A-Z+*.]{2,13}$/;
const compact = (id: string | null | undefined): string | null => (id ? id.replace(/[\s.-]/g, '').toUpperCase() : null);

/** A VAT identifier when the tax id carries its country prefix (BR-CO-09), else a plain tax registration id. */
function taxIds(taxId: string | null | undefined): { vatId: string | null; taxRegistrationId: string | null } {
  const id = compact(taxId);
  if (!id) return { vatId: null, taxRegistrationId: null };
  return VAT_PREFIX.test(id) ? { vatId: id, taxRegistrationId: null } : { vatId: null, taxRegistrationId: taxId!.trim() };
}

/** French registration numbers name their scheme by their length: SIREN (9 digits, ICD 0002), SIRET (14, ICD 0009). */
export function registrationScheme(number: string, country: string | null | undefined, given?: string | null): string | null {
  if (given) return given;
  const digits = number.replace(/\s/g, '');
  if (country !== 'FR' || !/^\d+$/.test(digits)) return null;
  return digits.length === 9 ? '0002' : digits.length === 14 ? '0009' : null;
}

const postal = (address: InvoiceAddress | null, fallbackCountry: string): EPostalAddress => ({
  line1: address?.line1 ?? null, line2: address?.line2 ?? null, city: address?.city ?? null, zip: address?.zip ?? null,
  state: address?.state ?? null, country: address?.country ?? fallbackCountry,
});

function seller(invoice: Invoice, entity: EntityItem | null): EParty {
  const registration = entity?.registration_number?.trim();
  const country = invoice.seller.address.country ?? entity?.country ?? '';
  return {
    name: invoice.seller.name,
    tradeName: invoice.seller.trade_name,
    legalId: registration ? { value: registration.replace(/\s/g, ''), scheme: registrationScheme(registration, country, entity?.registration_scheme) } : null,
    ...taxIds(invoice.seller.tax_id ?? entity?.tax_id),
    legalInfo: entity?.legal_form ?? null,
    email: entity?.billing_email ?? null,
    address: postal(invoice.seller.address, country),
  };
}

function buyer(invoice: Invoice, customer: CustomerItem | null, sellerCountry: string): EParty {
  const registration = customer?.registration_number?.trim();
  const address = postal(invoice.customer.address, sellerCountry);
  return {
    name: invoice.customer.name,
    tradeName: null,
    legalId: registration ? { value: registration.replace(/\s/g, ''), scheme: registrationScheme(registration, address.country) } : null,
    // EN 16931 has no buyer tax registration other than the VAT identifier (BT-48).
    vatId: taxIds(invoice.customer.vat_number ?? invoice.customer.tax_id).vatId,
    taxRegistrationId: null,
    legalInfo: null,
    email: invoice.customer.email,
    address,
  };
}

/** The EN 16931 model of an issued invoice or credit note. Drafts and other documents have no e-invoice (422). */
export function eInvoice({ invoice, entity, customer, original }: EInvoiceSources): EInvoice {
  if (invoice.type === 'document') throw new RuleViolation('einvoice_unavailable', `Document '${invoice.id}' is not an invoice: it has no e-invoice; download it as a pdf.`);
  if (!invoice.number) throw new RuleViolation('einvoice_unavailable', `Invoice '${invoice.id}' is a draft: e-invoices exist once it is issued (it has no number yet).`);
  if (invoice.line_items.length === 0) throw new RuleViolation('einvoice_unavailable', `Invoice '${invoice.id}' has no lines: EN 16931 needs at least one (BR-16).`);
  try {
    return build(invoice, entity, customer, original);
  } catch (error) {
    if (error instanceof PrecisionError) throw new RuleViolation('einvoice_unavailable', `Invoice '${invoice.id}': ${error.message}`);
    throw error;
  }
}

function build(invoice: Invoice, entity: EntityItem | null, customer: CustomerItem | null, original: Invoice | null): EInvoice {
  const { currency } = invoice;
  const timezone = entity?.timezone;
  const day = (at: string) => formatDate(at, timezone);
  const money = (minor: number) => amountDecimal(minor, currency);
  const from = seller(invoice, entity);
  const lines = invoice.line_items.map((line, index) => {
    const category = lineCategory(line, invoice.tax_scheme, from.address.country);
    const gross = line.amount_excluding_tax + line.discount_amount;
    const exact = line.unit_amount * line.units_count === gross;
    return {
      line: {
        id: String(index + 1),
        name: line.name.trim() || line.description?.trim() || einvoiceText('pdf.item'),
        description: line.name.trim() ? line.description : null,
        quantity: String(line.units_count),
        unitCode: line.unit_code ?? 'C62',
        netPrice: exact ? priceDecimal(line.unit_amount, currency) : priceDecimal(gross, currency),
        baseQuantity: exact || line.units_count === 0 ? null : String(line.units_count),
        netAmount: money(line.amount_excluding_tax),
        allowance: line.discount_amount > 0 ? money(line.discount_amount) : null,
        category: category.category,
        rate: category.rate,
        periodStart: line.period_starts_at ? day(line.period_starts_at) : null,
        periodEnd: line.period_ends_at ? day(line.period_ends_at) : null,
      } satisfies ELine,
      category,
      item: line,
    };
  });
  const groups = new Map<string, { first: (typeof lines)[number]; base: number; tax: number }>();
  for (const entry of lines) {
    const key = `${entry.category.category}:${entry.category.rate}`;
    const group = groups.get(key) ?? { first: entry, base: 0, tax: 0 };
    group.base += entry.item.amount_excluding_tax;
    group.tax += entry.item.tax_amount;
    groups.set(key, group);
  }
  const vat = [...groups.values()].map(({ first, base, tax }): EVatBreakdown => ({
    category: first.category.category, rate: first.category.rate, base: money(base), tax: money(tax),
    exemptionReason: first.category.exemptionReason, exemptionCode: first.category.exemptionCode,
  }));
  const credit = invoice.type === 'credit_note';
  const terms = entity?.payment_terms ?? null;
  return {
    typeCode: credit ? '381' : '380',
    number: invoice.number!,
    issueDate: day(invoice.emitted_at),
    dueDate: credit ? null : day(invoice.due_at),
    currency,
    buyerReference: invoice.reference,
    purchaseOrder: invoice.purchase_order,
    preceding: credit && (invoice.original_invoice_number ?? original?.number)
      ? { number: (invoice.original_invoice_number ?? original?.number)!, issueDate: original ? day(original.emitted_at) : null }
      : null,
    notes: legalMentions(invoice, entity, customer, einvoiceText).map((m) => ({ text: m.text, subject: m.subject })),
    seller: from,
    buyer: buyer(invoice, customer, from.address.country),
    payment: entity?.bank_account?.iban
      ? { iban: compact(entity.bank_account.iban)!, bic: compact(entity.bank_account.bic), accountName: entity.bank_account.account_name ?? null }
      : null,
    paymentTerms: credit ? null : terms,
    period: invoice.period_starts_at && invoice.period_ends_at ? { start: day(invoice.period_starts_at), end: day(invoice.period_ends_at) } : null,
    lines: lines.map((l) => l.line),
    vat,
    totals: {
      lineTotal: money(invoice.amount_excluding_tax),
      taxExclusive: money(invoice.amount_excluding_tax),
      tax: money(invoice.tax_amount),
      taxInclusive: money(invoice.total_amount),
      prepaid: money(invoice.total_amount - invoice.amount_due),
      due: money(invoice.amount_due),
    },
  };
}
