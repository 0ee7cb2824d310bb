/**
 * The words of the invoice PDF and of the e-invoices' notes and exemption reasons (English; the entity's language only
 * tags the document). Every text a reader sees is in `LABELS` or built here, so translating them is one file.
 */
import { formatRate } from '../../../money/tax-rate';
import type { CustomerItem } from '../../customers/customer';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import type { Invoice, InvoiceAddress } from '../invoice';

export const LABELS = {
  item: 'Item',
  /** EN 16931 exemption reasons (BT-120) by VAT category, also printed on the PDF. */
  exemptions: {
    E: 'Exempt from VAT',
    AE: 'Reverse charge: VAT to be accounted for by the recipient. Article 196 of Council Directive 2006/112/EC.',
    K: 'Intra-community supply exempt from VAT (Article 138 of Council Directive 2006/112/EC).',
    G: 'VAT exempt. Supply outside the EU: Articles 44 and 146 of Council Directive 2006/112/EC.',
    O: 'Not subject to VAT.',
  },
  mentions: {
    frenchFranchise: 'TVA non applicable, art. 293 B du CGI.',
    latePayment: (terms: string) => `Late payment: ${terms}`,
    /** French B2B: art. L441-10 and D441-5 of the Commercial Code; 40 EUR whatever the invoice's currency. */
    recoveryIndemnity: 'A fixed indemnity of 40 EUR for recovery costs is due in case of late payment (art. L441-10 and D441-5 of the French Commercial Code).',
    noEarlyPaymentDiscount: 'No discount for early payment.',
  },
  seller: {
    registration: 'Registration no.',
    taxId: 'Tax ID',
    iban: 'IBAN',
    bic: 'BIC',
  },
} as const;

export interface Mention {
  text: string;
  /** UNTDID 4451 subject of the e-invoice note: TXD tax, PMD late-payment penalties, PMT recovery costs, AAB discounts. */
  subject: string | null;
}

/** The tax scheme's mention: the exemption or reverse-charge article of a scheme that charges no tax. */
function taxMention(invoice: Pick<Invoice, 'tax_scheme'>, sellerCountry: string | null): string | null {
  if (invoice.tax_scheme === 'reverse_charge') return LABELS.exemptions.AE;
  if (invoice.tax_scheme === 'exempt') return LABELS.exemptions.G;
  if (invoice.tax_scheme === 'not_eligible' && sellerCountry === 'FR') return LABELS.mentions.frenchFranchise;
  return null;
}

/**
 * The notes EU and French law want on the invoice, in the PDF and as the e-invoices' notes (BG-1): the tax article,
 * the late-payment penalties (`invoice_late_fees`), for a French seller invoicing a business the 40 EUR recovery
 * indemnity and the early-payment discount terms, then the invoice's own note and additional information.
 */
export function legalMentions(invoice: Invoice, entity: Pick<EntityItem, 'country' | 'invoice_late_fees'> | null, customer: Pick<CustomerItem, 'type'> | null): Mention[] {
  const sellerCountry = invoice.seller.address.country ?? entity?.country ?? null;
  const business = customer?.type === 'corporate' || Boolean(invoice.customer.vat_number ?? invoice.customer.tax_id);
  const frenchB2B = sellerCountry === 'FR' && business && invoice.type === 'invoice';
  const mentions: (Mention | null)[] = [
    ((tax) => (tax ? { text: tax, subject: 'TXD' } : null))(taxMention(invoice, sellerCountry)),
    invoice.type === 'invoice' && entity?.invoice_late_fees?.trim() ? { text: LABELS.mentions.latePayment(entity.invoice_late_fees.trim()), subject: 'PMD' } : null,
    frenchB2B ? { text: LABELS.mentions.recoveryIndemnity, subject: 'PMT' } : null,
    frenchB2B ? { text: LABELS.mentions.noEarlyPaymentDiscount, subject: 'AAB' } : null,
    invoice.custom_note?.trim() ? { text: invoice.custom_note, subject: null } : null,
    invoice.additional_info?.trim() ? { text: invoice.additional_info, subject: null } : null,
  ];
  return mentions.filter((m): m is Mention => m !== null);
}

export function documentTitle(invoice: Pick<Invoice, 'type' | 'document_name'>): string {
  if (invoice.type === 'credit_note') return 'Credit note';
  if (invoice.type === 'document') return invoice.document_name?.trim() || 'Document';
  return 'Invoice';
}

/** A draft has no number yet. */
export const documentNumber = (invoice: Pick<Invoice, 'number'>): string => invoice.number ?? 'Draft';

export const taxLabel = (rate: number): string => `Tax ${formatRate(rate)}%`;

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

function countryName(code: string): string {
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The printed lines of an address; its name only when it differs from the party's own name. */
export function addressLines(address: InvoiceAddress | null, partyName: string): string[] {
  if (!address) return [];
  const cityLine = [address.zip, address.city].filter(Boolean).join(' ');
  return [
    address.name && address.name !== partyName ? address.name : null,
    address.line1,
    address.line2,
    cityLine || null,
    address.state,
    address.country ? countryName(address.country) : null,
  ].filter((line): line is string => typeof line === 'string' && line.trim() !== '');
}

/** The calendar day of a timestamp where the seller is (YYYY-MM-DD); UTC when the time zone is unknown. */
export function formatDate(timestamp: string, timezone?: string | null): string {
  const at = new Date(timestamp);
  if (Number.isNaN(at.getTime())) return timestamp;
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timezone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

/** WinAnsiEncoding beyond Latin-1: what the built-in fonts print besides U+0020–U+007E and U+00A0–U+00FF. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

const printable = (c: string): boolean => {
  const code = c.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(c);
};

/**
 * Text the built-in fonts can print (they encode WinAnsi only; anything else would come out as other glyphs):
 * accents the fonts lack are dropped ('ź' → 'z'), compatibility forms spelled out ('ﬁ' → 'fi'), other characters
 * become '?'; line breaks and tabs are kept.
 */
export function printableText(value: string): string {
  return [...value]
    .map((c) => {
      if (c === '\n' || c === '\t' || printable(c)) return c;
      const base = c.normalize('NFKD').replace(/\p{M}/gu, '');
      return base !== '' && [...base].every(printable) ? base : '?';
    })
    .join('');
}
