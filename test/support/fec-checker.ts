/**
 * A checker of the Fichier des écritures comptables, written from its specification (article A47 A-1 of the Livre
 * des procédures fiscales, and its commentary BOI-CF-IOR-60-40-20), independent of the code that writes one:
 * - the file name is `<SIREN>FEC<AAAAMMJJ>.txt`;
 * - characters of ISO 8859-15 (or ASCII), records ended by CR and/or LF, one zone separator, tab or `|`, used
 *   nowhere else;
 * - the first record names the 18 zones in their order, every record has the 18 zones;
 * - dates are AAAAMMJJ, real days; amounts are decimal numbers in characters, a comma as decimal separator, no
 *   thousands separator; Debit and Credit are not both non-zero;
 * - mandatory zones are filled (CompAuxNum and CompAuxLib together or not at all; DateLet with EcritureLet;
 *   Idevise with Montantdevise); CompteNum begins with 3 digits (the Plan comptable général's classes);
 * - each entry (JournalCode + EcritureNum) has one date and balances; so does the file;
 * - entries are numbered, per journal, in increasing and chronological order without gaps.
 */
import iconv from 'iconv-lite';

export const FEC_ZONES = [
  'JournalCode', 'JournalLib', 'EcritureNum', 'EcritureDate', 'CompteNum', 'CompteLib', 'CompAuxNum', 'CompAuxLib', 'PieceRef',
  'PieceDate', 'EcritureLib', 'Debit', 'Credit', 'EcritureLet', 'DateLet', 'ValidDate', 'Montantdevise', 'Idevise',
] as const;

type Zone = (typeof FEC_ZONES)[number];
export type FecRecord = Record<Zone, string>;

export interface FecReport {
  errors: string[];
  records: FecRecord[];
  separator: string;
}

const AMOUNT = /^-?\d+(,\d{1,})?$/;

function realDay(text: string): boolean {
  if (!/^\d{8}$/.test(text)) return false;
  const [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(4, 6)), Number(text.slice(6, 8))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Accented text in ISO 8859-15 is almost never valid UTF-8 (an é alone is 0xE9, which UTF-8 forbids there). */
function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Amounts compared in hundredths: the comma read as the decimal point. */
const cents = (text: string): number => Math.round(Number((text || '0').replace(',', '.')) * 100);

export function checkFec(fileName: string, bytes: Buffer): FecReport {
  const errors: string[] = [];
  if (!/^\d{9}FEC\d{8}\.txt$/.test(fileName) || !realDay(fileName.slice(12, 20))) errors.push(`file name '${fileName}' is not <SIREN>FEC<AAAAMMJJ>.txt`);
  const text = iconv.decode(bytes, 'ISO-8859-15');
  if (!iconv.encode(text, 'ISO-8859-15').equals(bytes)) errors.push('not ISO 8859-15 text');
  if (bytes.some((b) => b >= 0x80) && isUtf8(bytes)) errors.push('UTF-8 multibyte sequences: the text is UTF-8, not ISO 8859-15');
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text)) errors.push('control characters other than the separator and record ends');
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  const header = lines[0] ?? '';
  const separator = header.includes('\t') ? '\t' : '|';
  if (header.includes('\t') && header.includes('|')) errors.push('two zone separators');
  if (header.split(separator).join(',') !== FEC_ZONES.join(',')) errors.push(`first record is not the 18 zone names in order: ${header}`);
  const records: FecRecord[] = [];
  lines.slice(1).forEach((line, i) => {
    const at = `record ${i + 2}`;
    const zones = line.split(separator);
    if (zones.length !== FEC_ZONES.length) {
      errors.push(`${at}: ${zones.length} zones, not 18`);
      return;
    }
    const r = Object.fromEntries(FEC_ZONES.map((z, k) => [z, zones[k]!])) as FecRecord;
    records.push(r);
    for (const z of ['JournalCode', 'JournalLib', 'EcritureNum', 'CompteNum', 'CompteLib', 'PieceRef', 'EcritureLib'] as const) if (!r[z].trim()) errors.push(`${at}: ${z} is empty`);
    for (const z of ['EcritureDate', 'PieceDate', 'ValidDate'] as const) if (!realDay(r[z])) errors.push(`${at}: ${z} '${r[z]}' is not AAAAMMJJ`);
    if (!/^\d{3}/.test(r.CompteNum)) errors.push(`${at}: CompteNum '${r.CompteNum}' does not begin with 3 digits`);
    if (!!r.CompAuxNum !== !!r.CompAuxLib) errors.push(`${at}: CompAuxNum and CompAuxLib go together`);
    for (const z of ['Debit', 'Credit'] as const) if (!AMOUNT.test(r[z]) || r[z].startsWith('-')) errors.push(`${at}: ${z} '${r[z]}' is not a positive amount with a decimal comma`);
    if (cents(r.Debit) !== 0 && cents(r.Credit) !== 0) errors.push(`${at}: both Debit and Credit`);
    if (r.EcritureLet && !realDay(r.DateLet)) errors.push(`${at}: DateLet missing for a lettered line`);
    if (r.Montantdevise && (!AMOUNT.test(r.Montantdevise) || !/^[A-Z]{3}$/.test(r.Idevise))) errors.push(`${at}: Montantdevise without a valid Idevise`);
  });
  const entries = new Map<string, FecRecord[]>();
  for (const r of records) entries.set(`${r.JournalCode}|${r.EcritureNum}`, [...(entries.get(`${r.JournalCode}|${r.EcritureNum}`) ?? []), r]);
  for (const [key, rs] of entries) {
    if (new Set(rs.map((r) => r.EcritureDate)).size !== 1) errors.push(`entry ${key}: several dates`);
    const [d, c] = [rs.reduce((s, r) => s + cents(r.Debit), 0), rs.reduce((s, r) => s + cents(r.Credit), 0)];
    if (d !== c) errors.push(`entry ${key}: debit ${d} ≠ credit ${c}`);
  }
  const [d, c] = [records.reduce((s, r) => s + cents(r.Debit), 0), records.reduce((s, r) => s + cents(r.Credit), 0)];
  if (d !== c) errors.push(`file: debit ${d} ≠ credit ${c}`);
  const journals = new Map<string, { num: number; date: string }[]>();
  for (const key of entries.keys()) {
    const [journal, num] = key.split('|') as [string, string];
    const digits = /(\d+)$/.exec(num);
    if (!digits) errors.push(`entry ${key}: EcritureNum has no sequence number`);
    journals.set(journal, [...(journals.get(journal) ?? []), { num: Number(digits?.[1] ?? NaN), date: entries.get(key)![0]!.EcritureDate }]);
  }
  for (const [journal, seq] of journals) {
    seq.forEach((s, i) => {
      if (i > 0 && s.num !== seq[i - 1]!.num + 1) errors.push(`journal ${journal}: entry ${s.num} follows ${seq[i - 1]!.num} (a gap or a disorder)`);
      if (i > 0 && s.date < seq[i - 1]!.date) errors.push(`journal ${journal}: entry ${s.num} is dated before the one it follows`);
    });
  }
  return { errors, records, separator };
}
