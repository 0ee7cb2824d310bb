import iconv from 'iconv-lite';
import { RuleViolation } from '../../errors';
import type { JournalEntry, JournalLine } from './entries';
import { decimal, localDay } from './decimals';

/** The first columns of DATEV's Buchungsstapel (format category 21, version 13): the ones a booking needs. */
const COLUMNS = [
  'Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen', 'WKZ Umsatz', 'Kurs', 'Basis-Umsatz', 'WKZ Basis-Umsatz', 'Konto',
  'Gegenkonto (ohne BU-Schlüssel)', 'BU-Schlüssel', 'Belegdatum', 'Belegfeld 1', 'Belegfeld 2', 'Skonto', 'Buchungstext',
];

/** DATEV text fields are quoted, their quotes doubled, no line breaks; lengths as DATEV allows. */
const text = (value: string, max: number) => `"${value.replace(/[\r\n;]+/g, ' ').slice(0, max).replace(/"/g, '""')}"`;

export interface DatevSettings {
  currency: string;
  timeZone: string;
  /** The exported period's first and last days (YYYY-MM-DD), in one calendar year: a Buchungsstapel holds one fiscal year. */
  from: string;
  to: string;
  createdAt: string;
  /** DATEV's Beraternummer and Mandantennummer: the consultant sets them at import; these stand in. */
  consultant?: number;
  client?: number;
}

/**
 * A DATEV booking is an amount from one account (Konto, with S debit or H credit) to another (Gegenkonto): each entry
 * becomes its lines against its largest line, which they balance. VAT is posted on its own accounts, so no
 * BU-Schlüssel asks DATEV to compute it again.
 */
function bookings(entry: JournalEntry): { line: JournalLine; against: JournalLine }[] {
  const against = entry.lines.reduce((a, b) => (Math.max(b.debit, b.credit) > Math.max(a.debit, a.credit) ? b : a));
  return entry.lines.filter((l) => l !== against).map((line) => ({ line, against }));
}

const numeric = (account: string) => {
  if (!/^\d{1,9}$/.test(account)) throw new RuleViolation('datev_account_invalid', `DATEV accounts are numbers of at most 9 digits; '${account}' is not.`);
  return account;
};

/** DATEV's Sachkontenlänge: the length of the longest account posted to (at least 4). */
const accountLength = (entries: readonly JournalEntry[]) => Math.max(4, ...entries.flatMap((e) => e.lines.map((l) => l.account.length)));

/** The header line (EXTF, version 700, Buchungsstapel) and the column line, then one line per booking; semicolons, CR LF. */
export function datevText(entries: readonly JournalEntry[], s: DatevSettings): string {
  if (s.from.slice(0, 4) !== s.to.slice(0, 4)) throw new RuleViolation('datev_period_spans_years', 'A DATEV Buchungsstapel holds one year: ask for a period within one calendar year.');
  const compact = (day: string) => day.replace(/-/g, '');
  const created = s.createdAt.replace(/\D/g, '').slice(0, 17);
  const header = [
    '"EXTF"', '700', '21', '"Buchungsstapel"', '13', created, '', '"RE"', '""', '""', String(s.consultant ?? 1001), String(s.client ?? 1),
    `${s.from.slice(0, 4)}0101`, String(accountLength(entries)), compact(s.from), compact(s.to), '"Billing API"', '""', '1', '0', '0', text(s.currency, 3),
  ];
  const rows = entries.flatMap((e) => bookings(e).map(({ line, against }) => [
    decimal(line.debit + line.credit, s.currency, true), line.debit > 0 ? '"S"' : '"H"', text(s.currency, 3), '', '', '',
    numeric(line.account), numeric(against.account), '""', localDay(e.date, s.timeZone).slice(8, 10) + localDay(e.date, s.timeZone).slice(5, 7),
    text(e.piece_ref.replace(/[^A-Za-z0-9$&%*+\-/._]/g, ''), 36), '""', '', text(e.label, 60),
  ]));
  return [header.join(';'), COLUMNS.join(';'), ...rows.map((r) => r.join(';'))].join('\r\n') + '\r\n';
}

export const datevBytes = (entries: readonly JournalEntry[], s: DatevSettings): Buffer => iconv.encode(datevText(entries, s), 'win1252');
