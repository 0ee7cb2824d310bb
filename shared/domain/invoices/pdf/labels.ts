/** The words of the invoice PDF, from the invoice alone (English; the entity's language only tags the document). */
import { formatRate } from '../../../money/tax-rate';
import type { TaxSchemeName } from '../../../money/tax-scheme';
import type { Invoice, InvoiceAddress } from '../invoice';

export function documentTitle(invoice: Pick<Invoice, 'type' | 'document_name'>): string {
  if (invoice.type === 'credit_note') return 'Credit note';
  if (invoice.type === 'document') return invoice.document_name?.trim() || 'Document';
  return 'Invoice';
}

/** A draft has no number yet. */
export const documentNumber = (invoice: Pick<Invoice, 'number'>): string => invoice.number ?? 'Draft';

/** Why a document carries no tax, when its scheme says so (docs/taxes.md). */
export function taxSchemeNote(scheme: TaxSchemeName): string | null {
  if (scheme === 'reverse_charge') return 'Reverse charge: VAT to be accounted for by the recipient.';
  if (scheme === 'exempt') return 'VAT exempt.';
  return null;
}

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
