/**
 * The words of the invoice PDF and of the e-invoices' notes and exemption reasons, in the document's language: every
 * text a reader sees comes from the translation catalogs (shared/i18n/messages, keys `pdf.*` and `doc.*`) or is built
 * here, with dates, numbers and amounts formatted for the language by Intl.
 */
import { formatterFor, type Formatter } from '../../../i18n/format';
import { catalog, translator, type Language, type Translate } from '../../../i18n/catalog';
import type { CustomerItem } from '../../customers/customer';
import type { EntityItem } from '../../invoicing-entities/invoicing-entity';
import type { PaymentMethodSummary } from '../../payment-methods/payment-method';
import type { Invoice, InvoiceAddress } from '../invoice';

/** How a document speaks: its language's texts, and Intl formats in the seller's time zone. */
export interface Words {
  language: Language;
  t: Translate;
  f: Formatter;
  /** The language's texts have letters the built-in fonts lack (Polish): the document embeds its fonts. */
  beyondWinAnsi: boolean;
}

/** Letters of Latin Extended-A (Polish, Czech, Hungarian…): beyond the built-in fonts, within the embedded ones. */
export const beyondWinAnsi = (text: string): boolean => /[\u0100-\u017F]/u.test(text);

const validZone = (zone: string | null | undefined): string => {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
};

const languagesBeyondWinAnsi = new Map<Language, boolean>();

/** Whether a language's own words need the embedded fonts, decided once per language and process. */
function languageBeyondWinAnsi(language: Language): boolean {
  let beyond = languagesBeyondWinAnsi.get(language);
  if (beyond === undefined) languagesBeyondWinAnsi.set(language, (beyond = beyondWinAnsi(Object.values(catalog(language)).join(''))));
  return beyond;
}

export const wordsFor = (language: Language = 'en', timeZone?: string | null): Words => ({
  language, t: translator(language), f: formatterFor(language, validZone(timeZone)), beyondWinAnsi: languageBeyondWinAnsi(language),
});

/** E-invoices' texts (notes BG-1, exemption reasons BT-120) are English: their codes carry the meaning for machines. */
export const einvoiceText: Translate = translator('en');

/** The VAT categories with an exemption reason (EN 16931 BT-120). */
export type ExemptCategory = 'E' | 'AE' | 'K' | 'G' | 'O';

export const exemptionText = (category: ExemptCategory, t: Translate): string => t(`pdf.exemption.${category}`);

/** The French VAT franchise of small businesses: the law gives this wording, in French, whatever the reader's language. */
export const FRENCH_FRANCHISE = 'TVA non applicable, art. 293 B du CGI.';

export interface Mention {
  text: string;
  /** UNTDID 4451 subject of the e-invoice note: TXD tax, PMD late-payment penalties, PMT recovery costs, AAB discounts. */
  subject: string | null;
}

/** The tax scheme's mention: the exemption or reverse-charge article of a scheme that charges no tax. */
function taxMention(invoice: Pick<Invoice, 'tax_scheme'>, sellerCountry: string | null, t: Translate): string | null {
  if (invoice.tax_scheme === 'reverse_charge') return exemptionText('AE', t);
  if (invoice.tax_scheme === 'exempt') return exemptionText('G', t);
  if (invoice.tax_scheme === 'not_eligible' && sellerCountry === 'FR') return FRENCH_FRANCHISE;
  return null;
}

/**
 * The notes EU and French law want on the invoice, in the PDF and as the e-invoices' notes (BG-1): the tax article,
 * the late-payment penalties (`invoice_late_fees`), for a French seller invoicing a business the 40 EUR recovery
 * indemnity and the early-payment discount terms, then the invoice's own note and additional information.
 */
export function legalMentions(
  invoice: Invoice, entity: Pick<EntityItem, 'country' | 'invoice_late_fees'> | null, customer: Pick<CustomerItem, 'type'> | null, t: Translate,
): Mention[] {
  const sellerCountry = invoice.seller.address.country ?? entity?.country ?? null;
  const business = customer?.type === 'corporate' || Boolean(invoice.customer.vat_number ?? invoice.customer.tax_id);
  const frenchB2B = sellerCountry === 'FR' && business && invoice.type === 'invoice';
  const mentions: (Mention | null)[] = [
    ((tax) => (tax ? { text: tax, subject: 'TXD' } : null))(taxMention(invoice, sellerCountry, t)),
    invoice.type === 'invoice' && entity?.invoice_late_fees?.trim() ? { text: t('pdf.late_payment', { terms: entity.invoice_late_fees.trim() }), subject: 'PMD' } : null,
    frenchB2B ? { text: t('pdf.recovery_indemnity'), subject: 'PMT' } : null,
    frenchB2B ? { text: t('pdf.no_early_discount'), subject: 'AAB' } : null,
    invoice.custom_note?.trim() ? { text: invoice.custom_note, subject: null } : null,
    invoice.additional_info?.trim() ? { text: invoice.additional_info, subject: null } : null,
  ];
  return mentions.filter((m): m is Mention => m !== null);
}

export function documentTitle(invoice: Pick<Invoice, 'type' | 'document_name'>, t: Translate): string {
  if (invoice.type === 'credit_note') return t('doc.credit_note');
  if (invoice.type === 'document') return invoice.document_name?.trim() || t('doc.document');
  return t('doc.invoice');
}

/** A draft has no number yet. */
export const documentNumber = (invoice: Pick<Invoice, 'number'>, t: Translate): string => invoice.number ?? t('pdf.draft');

export const taxLabel = (rate: number, words: Words): string => `${words.t('doc.tax')} ${words.f.percent(rate)}`;

const regionNames = new Map<Language, Intl.DisplayNames>();

export function countryName(code: string, language: Language): string {
  let names = regionNames.get(language);
  if (!names) regionNames.set(language, (names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' })));
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The printed lines of an address (its country named in `language`); its name only when it differs from the party's own name. */
export function addressLines(address: InvoiceAddress | null, partyName: string, language: Language = 'en'): string[] {
  if (!address) return [];
  const cityLine = [address.zip, address.city].filter(Boolean).join(' ');
  return [
    address.name && address.name !== partyName ? address.name : null,
    address.line1,
    address.line2,
    cityLine || null,
    address.state,
    address.country ? countryName(address.country, language) : null,
  ].filter((line): line is string => typeof line === 'string' && line.trim() !== '');
}

/** The calendar day of a timestamp where the seller is (YYYY-MM-DD, as e-invoices write it); UTC when the time zone is unknown. */
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

/** Letters outside WinAnsi that NFKD does not split into a base letter and an accent: their plain letters. */
const UNDECOMPOSABLE: Record<string, string> = {
  'ł': 'l', 'Ł': 'L', 'đ': 'd', 'Đ': 'D', 'ı': 'i', 'ħ': 'h', 'Ħ': 'H', 'ŧ': 't', 'Ŧ': 'T',
  // The narrow no-break space French numbers group digits with ("1 234,56 €"), and the figure and thin spaces:
  // a no-break space, not the plain space they decompose to, so an amount never wraps between its digits.
  '\u202F': '\u00A0', '\u2007': '\u00A0', '\u2009': '\u00A0',
};

/** Whether a document's fonts print a character. */
export type Printable = (c: string) => boolean;

/** What the built-in fonts print: WinAnsi. */
export const winAnsi: Printable = (c) => {
  const code = c.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(c);
};

/**
 * Text the document's fonts can print (the built-in ones encode WinAnsi only, the embedded ones add Latin
 * Extended-A; anything else would come out as other glyphs): accents the fonts lack are dropped ('ș' → 's'),
 * compatibility forms spelled out ('ﬁ' → 'fi'), other characters become '?'; line breaks and tabs are kept.
 */
export function printableText(value: string, printable: Printable = winAnsi): string {
  return [...value]
    .map((c) => {
      if (c === '\n' || c === '\t' || printable(c)) return c;
      if (c in UNDECOMPOSABLE) return UNDECOMPOSABLE[c]!;
      const base = c.normalize('NFKD').replace(/\p{M}/gu, '');
      return base !== '' && [...base].every(printable) ? base : '?';
    })
    .join('');
}

/** "Visa •••• 4242", "direct debit •••• 3000", "bank transfer": how a payment was made, as the reader knows it. */
export function paymentWay(method: PaymentMethodSummary | null, { t }: Words): string {
  if (!method) return t('pdf.method.other');
  // `direct_debit_bacs` is a direct debit, `transfer_automated` a transfer, Apple Pay and Google Pay cards.
  const way = PAYMENT_WAYS.find((prefix) => method.type.startsWith(prefix)) ?? (method.type.endsWith('_pay') ? 'card' : 'other');
  const name = method.brand ? method.brand.charAt(0).toUpperCase() + method.brand.slice(1) : t(`pdf.method.${way}`);
  return method.last_4_digits !== null ? `${name} •••• ${String(method.last_4_digits).padStart(4, '0')}` : name;
}

const PAYMENT_WAYS = ['card', 'direct_debit', 'transfer', 'wallet', 'external', 'other'] as const;
