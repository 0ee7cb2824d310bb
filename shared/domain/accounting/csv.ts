import type { JournalEntry } from './entries';
import { decimal, localDay } from './decimals';

const COLUMNS = [
  'journal', 'entry_number', 'date', 'account', 'account_label', 'auxiliary', 'auxiliary_label', 'piece_ref', 'piece_date', 'label',
  'debit', 'credit', 'currency', 'amount_in_document_currency', 'document_currency', 'source', 'source_id', 'invoicing_entity_id',
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The journal as CSV (UTF-8, comma, dot decimals, one row per line, CRLF): what a spreadsheet or any ledger imports. */
export function journalCsv(entries: readonly JournalEntry[], currency: string, timeZone: string): string {
  const rows = entries.flatMap((e) => e.lines.map((l) => [
    e.journal, String(e.number), localDay(e.date, timeZone), l.account, l.account_label, l.auxiliary ?? '', l.auxiliary_label ?? '', e.piece_ref,
    localDay(e.piece_date, timeZone), e.label, decimal(l.debit, currency), decimal(l.credit, currency), currency,
    l.amount_currency === null ? '' : decimal(l.amount_currency, l.currency!), l.currency ?? '', e.source, e.source_id, e.invoicing_entity_id ?? '',
  ]));
  return [COLUMNS as readonly string[], ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}
