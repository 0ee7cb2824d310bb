import type { Account } from './accounts';

/** VE sales (invoices, credit notes), BQ bank (payments and refunds through a provider or by hand), OD other (wallet, write-offs). */
export type JournalCode = 'VE' | 'BQ' | 'OD';

export const JOURNAL_LABELS: Record<JournalCode, string> = { VE: 'Ventes', BQ: 'Banque', OD: 'Opérations diverses' };

export type EntrySource = 'invoice' | 'credit_note' | 'payment' | 'refund' | 'wallet' | 'write_off';

/** One line of an entry, in the entity's accounting currency (minor units); `amount_currency` in the document's when it differs. */
export interface JournalLine {
  account: string;
  account_label: string;
  /** The customer's sub-account on the receivable (FEC CompAuxNum): the customer id. */
  auxiliary: string | null;
  auxiliary_label: string | null;
  debit: number;
  credit: number;
  /** Signed (debit positive), in `currency`, when the document's currency is not the entity's. */
  amount_currency: number | null;
  currency: string | null;
}

/** A balanced entry: Σ debit = Σ credit. `number` is its place in its journal over the exported period (1, 2, …). */
export interface JournalEntry {
  journal: JournalCode;
  number: number;
  /** ISO 8601: when it happened (an invoice's emission, a payment's processing…). */
  date: string;
  source: EntrySource;
  /** What caused it: the invoice, credit note, transaction or wallet transaction. */
  source_id: string;
  invoicing_entity_id: string | null;
  /** The document it rests on (FEC PieceRef): the invoice or credit note number, else the source's id. */
  piece_ref: string;
  piece_date: string;
  label: string;
  lines: JournalLine[];
}

export type EntryDraft = Omit<JournalEntry, 'number' | 'lines'> & { postings: Posting[] };

/** An amount on an account: positive = debit, negative = credit (document currency, before conversion). */
export interface Posting {
  account: Account;
  amount: number;
  customer?: { id: string; name: string };
}

/** Postings on the same account and customer summed; zero sums dropped. */
export function merged(postings: readonly Posting[]): Posting[] {
  const byKey = new Map<string, Posting>();
  for (const p of postings) {
    const key = `${p.account.code}|${p.customer?.id ?? ''}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? { ...seen, amount: seen.amount + p.amount } : { ...p });
  }
  return [...byKey.values()].filter((p) => p.amount !== 0);
}

export const sumDebits = (lines: readonly JournalLine[]): number => lines.reduce((s, l) => s + l.debit, 0);
export const sumCredits = (lines: readonly JournalLine[]): number => lines.reduce((s, l) => s + l.credit, 0);
