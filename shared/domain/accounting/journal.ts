import type { InvoiceItem, InvoiceLineItem, PaymentTransaction } from '../invoices/invoice';
import type { WalletTransactionItem } from '../wallets/transaction';
import { ACCOUNTS, moneyAccount, moneyWayOf, refundWayOf, vatAccount, type Account } from './accounts';
import { conversionOf, convert, ExchangeRateMissing, type Conversion } from './conversion';
import { merged, type EntryDraft, type JournalCode, type JournalEntry, type JournalLine, type Posting } from './entries';

/** What the journal needs beside the documents: each product's revenue account, each customer's name and entity. */
export interface JournalContext {
  accountingCurrency: string;
  /** A product's own revenue account (its `account_code`), when it has one. */
  productAccount: (productId: string) => Account | undefined;
  customer: (customerId: string) => { name: string; invoicing_entity_id: string | null } | undefined;
}

export interface JournalSources {
  /** Invoices and credit notes (documents are no accounting event and are skipped). */
  invoices: readonly InvoiceItem[];
  walletTransactions: readonly WalletTransactionItem[];
}

/** Statuses of a document that was never issued: nothing to book. */
const UNISSUED = new Set(['draft', 'closed']);

const isBooked = (i: InvoiceItem) => i.type !== 'document' && i.number !== null && !UNISSUED.has(i.status);

/** The issue of an invoice or credit note: receivable against revenue (per account) and VAT (per rate). */
function documentDraft(doc: InvoiceItem, ctx: JournalContext): EntryDraft {
  const customer = { id: doc.customer_id, name: doc.customer?.name ?? doc.customer_id };
  const sign = doc.type === 'credit_note' ? 1 : -1; // an invoice credits revenue and VAT; a credit note debits them
  const postings: Posting[] = [];
  for (const line of doc.line_items) {
    postings.push({ account: revenueAccount(line, ctx), amount: sign * line.amount_excluding_tax });
    if (line.tax_amount !== 0) postings.push({ account: vatAccount(line.tax_rate), amount: sign * line.tax_amount });
  }
  postings.push({ account: ACCOUNTS.receivable, amount: -sign * doc.total_amount, customer });
  const what = doc.type === 'credit_note' ? 'Avoir' : 'Facture';
  return {
    journal: 'VE', date: doc.emitted_at, source: doc.type === 'credit_note' ? 'credit_note' : 'invoice', source_id: doc.id,
    invoicing_entity_id: doc.invoicing_entity_id, piece_ref: doc.number!, piece_date: doc.emitted_at, label: `${what} ${doc.number} ${customer.name}`, postings,
  };
}

function revenueAccount(line: InvoiceLineItem, ctx: JournalContext): Account {
  if (line.entry_type === 'wallet_load') return ACCOUNTS.walletLiability;
  return (line.product_id && ctx.productAccount(line.product_id)) || ACCOUNTS.revenue;
}

/** A payment received (money in, receivable settled) or a refund (receivable back, money out). */
function transactionDraft(doc: InvoiceItem, t: PaymentTransaction, original: InvoiceItem | undefined): EntryDraft {
  const customer = { id: doc.customer_id, name: doc.customer?.name ?? doc.customer_id };
  const payment = t.type === 'payment';
  const way = payment ? moneyWayOf(t) : refundWayOf(t, original);
  const journal: JournalCode = way === 'wallet' ? 'OD' : 'BQ';
  const sign = payment ? 1 : -1;
  return {
    journal, date: t.process_at, source: payment ? 'payment' : 'refund', source_id: t.id, invoicing_entity_id: doc.invoicing_entity_id,
    piece_ref: doc.number!, piece_date: doc.emitted_at,
    label: `${payment ? 'Règlement' : 'Remboursement'} ${doc.number} ${customer.name} (${way})`,
    postings: [{ account: moneyAccount(way), amount: sign * t.amount }, { account: ACCOUNTS.receivable, amount: -sign * t.amount, customer }],
  };
}

/** An invoice marked uncollectible: what it still owed is written off. */
function writeOffDraft(doc: InvoiceItem): EntryDraft | undefined {
  if (doc.status !== 'uncollectible' || doc.amount_due <= 0) return undefined;
  const customer = { id: doc.customer_id, name: doc.customer?.name ?? doc.customer_id };
  const date = doc.written_off_at ?? doc.updated_at ?? doc.emitted_at;
  return {
    journal: 'OD', date, source: 'write_off', source_id: doc.id, invoicing_entity_id: doc.invoicing_entity_id, piece_ref: doc.number!, piece_date: doc.emitted_at,
    label: `Créance irrécouvrable ${doc.number} ${customer.name}`,
    postings: [{ account: ACCOUNTS.writeOff, amount: doc.amount_due }, { account: ACCOUNTS.receivable, amount: -doc.amount_due, customer }],
  };
}

/**
 * A wallet movement that no document books already: free credit given (or taken back, reverted, reset). Paid loads,
 * payments from the wallet and refunds to it are booked by their invoice, transaction or credit note.
 */
const bookedByDocument = (t: WalletTransactionItem) => t.source === 'invoice' || t.source === 'credit_note' || (t.type === 'credit_paid' && t.invoice_id !== null);

function walletDraft(t: WalletTransactionItem, ctx: JournalContext): EntryDraft | undefined {
  if (bookedByDocument(t)) return undefined;
  const sign = t.type === 'debit' ? 1 : -1;
  const name = ctx.customer(t.customer_id)?.name ?? t.customer_id;
  return {
    journal: 'OD', date: t.created_at, source: 'wallet', source_id: t.id, invoicing_entity_id: ctx.customer(t.customer_id)?.invoicing_entity_id ?? null,
    piece_ref: t.id, piece_date: t.created_at, label: `Portefeuille ${t.type === 'debit' ? 'débit' : 'crédit offert'} ${name}`,
    postings: [{ account: ACCOUNTS.walletLiability, amount: sign * t.amount }, { account: ACCOUNTS.offeredCredit, amount: -sign * t.amount }],
  };
}

interface Draft {
  draft: EntryDraft;
  currency: string;
  rate: number | null;
}

/** Every entry the sources make, in any order (not converted, not numbered). */
function drafts(sources: JournalSources, ctx: JournalContext): Draft[] {
  const byId = new Map(sources.invoices.map((i) => [i.id, i]));
  const out: Draft[] = [];
  for (const doc of sources.invoices.filter(isBooked)) {
    const of = (draft: EntryDraft | undefined) => draft && out.push({ draft, currency: doc.currency, rate: doc.conversion_rate });
    of(documentDraft(doc, ctx));
    for (const t of doc.transactions.filter((t) => t.status === 'succeeded')) of(transactionDraft(doc, t, doc.original_invoice_id ? byId.get(doc.original_invoice_id) : undefined));
    of(writeOffDraft(doc));
  }
  for (const t of sources.walletTransactions) {
    const draft = walletDraft(t, ctx);
    if (draft) out.push({ draft, currency: t.currency, rate: null });
  }
  return out;
}

/**
 * Postings → balanced lines in the accounting currency. Converted one by one, the parts may not sum to the converted
 * whole: the difference of rounding goes to the entry's largest line, so every entry stays balanced.
 */
function lines(postings: readonly Posting[], c: Conversion | undefined): JournalLine[] {
  const parts = merged(postings).map((p) => ({ p, amount: convert(p.amount, c) }));
  const gap = parts.reduce((s, x) => s + x.amount, 0);
  if (gap !== 0) {
    const largest = parts.reduce((a, b) => (Math.abs(b.amount) > Math.abs(a.amount) ? b : a));
    largest.amount -= gap;
  }
  return parts.filter((x) => x.amount !== 0).map(({ p, amount }) => ({
    account: p.account.code, account_label: p.account.label, auxiliary: p.customer?.id ?? null, auxiliary_label: p.customer?.name ?? null,
    debit: amount > 0 ? amount : 0, credit: amount < 0 ? -amount : 0,
    amount_currency: c ? p.amount : null, currency: c ? c.from : null,
  }));
}

export interface JournalPeriod {
  /** Inclusive, ISO 8601. */
  from: string;
  /** Exclusive, ISO 8601. */
  to: string;
  /** Only this entity's entries (wallet movements: their customer's entity). */
  invoicingEntityId?: string;
}

/**
 * The journal of a period: every entry dated in [from, to), in date order, numbered from 1 in each journal without
 * gaps. A document in a foreign currency without a stored rate refuses the whole journal (ExchangeRateMissing,
 * naming every such document), rather than books it at a guess.
 */
export function journalOf(sources: JournalSources, ctx: JournalContext, period: JournalPeriod): JournalEntry[] {
  const inPeriod = drafts(sources, ctx)
    .filter(({ draft }) => draft.date >= period.from && draft.date < period.to)
    .filter(({ draft }) => !period.invoicingEntityId || draft.invoicing_entity_id === period.invoicingEntityId)
    .sort((a, b) => (a.draft.date < b.draft.date ? -1 : a.draft.date > b.draft.date ? 1 : a.draft.source_id < b.draft.source_id ? -1 : 1));
  const missing = inPeriod.filter((d) => d.currency !== ctx.accountingCurrency && !d.rate);
  if (missing.length > 0) throw new ExchangeRateMissing([...new Set(missing.map((d) => d.draft.piece_ref))], missing[0]!.currency, ctx.accountingCurrency);
  const next: Record<JournalCode, number> = { VE: 0, BQ: 0, OD: 0 };
  return inPeriod.map(({ draft, currency, rate }) => {
    const { postings, ...rest } = draft;
    return { ...rest, number: ++next[draft.journal], lines: lines(postings, conversionOf(draft.source_id, currency, ctx.accountingCurrency, rate)) };
  });
}
