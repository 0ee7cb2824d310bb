import iconv from 'iconv-lite';
import { RuleViolation } from '../../errors';
import { JOURNAL_LABELS, type JournalEntry } from './entries';
import { decimal, localDay } from './decimals';

/** The 18 columns of article A47 A-1 of the Livre des procédures fiscales, in their order. */
export const FEC_COLUMNS = [
  'JournalCode', 'JournalLib', 'EcritureNum', 'EcritureDate', 'CompteNum', 'CompteLib', 'CompAuxNum', 'CompAuxLib', 'PieceRef',
  'PieceDate', 'EcritureLib', 'Debit', 'Credit', 'EcritureLet', 'DateLet', 'ValidDate', 'Montantdevise', 'Idevise',
] as const;

export const FEC_SEPARATOR = '\t';

const yyyymmdd = (iso: string, timeZone: string) => localDay(iso, timeZone).replace(/-/g, '');

/** Typographic marks ISO 8859-15 lacks, as their plain forms (anything else it lacks becomes `?` when encoded). */
const PLAIN: Record<string, string> = { '‘': "'", '’': "'", '‚': "'", '“': '"', '”': '"', '„': '"', '–': '-', '—': '-', '…': '...', '\u00a0': ' ' };

/** No separator or record break inside a field (A47 A-1 I 4°: a separator unique and unambiguous in the file). */
const field = (text: string) => text.replace(/[‘’‚“”„–—…\u00a0]/g, (c) => PLAIN[c]!).replace(/[\t|\r\n]+/g, ' ').trim();

/**
 * An entity's journal as a FEC: a header line of the column names, then one line per journal line, tab-separated,
 * dates YYYYMMDD, amounts with a decimal comma and no thousands separator, entries numbered per journal from 1
 * without gaps (JournalEntry.number), encoded ISO 8859-15, records ended by CR LF.
 */
export function fecText(entries: readonly JournalEntry[], currency: string, timeZone: string): string {
  const rows = entries.flatMap((e) => e.lines.map((l) => [
    e.journal, JOURNAL_LABELS[e.journal], `${e.journal}${String(e.number).padStart(6, '0')}`, yyyymmdd(e.date, timeZone), l.account, field(l.account_label),
    l.auxiliary ?? '', field(l.auxiliary_label ?? ''), field(e.piece_ref), yyyymmdd(e.piece_date, timeZone), field(e.label),
    decimal(l.debit, currency, true), decimal(l.credit, currency, true), '', '', yyyymmdd(e.date, timeZone),
    l.amount_currency === null ? '' : decimal(Math.abs(l.amount_currency), l.currency!, true), l.currency ?? '',
  ]));
  return [FEC_COLUMNS as readonly string[], ...rows].map((r) => r.join(FEC_SEPARATOR)).join('\r\n') + '\r\n';
}

export const fecBytes = (entries: readonly JournalEntry[], currency: string, timeZone: string): Buffer =>
  iconv.encode(fecText(entries, currency, timeZone), 'ISO-8859-15');

/** `<SIREN>FEC<closing date YYYYMMDD>.txt`: the SIREN is the first 9 digits of the entity's registration number (a SIRET's are its SIREN). */
export function fecFileName(registrationNumber: string | null, entityId: string, closingDay: string): string {
  const siren = (registrationNumber ?? '').replace(/\D/g, '').slice(0, 9);
  if (siren.length !== 9) {
    throw new RuleViolation('siren_missing', `Invoicing entity '${entityId}' has no SIREN (its registration_number must begin with 9 digits): a FEC is named after it.`);
  }
  return `${siren}FEC${closingDay.replace(/-/g, '')}.txt`;
}
