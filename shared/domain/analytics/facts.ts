import type { InvoiceItem } from '../invoices/invoice';
import { monthOf, recogniseByMonth } from './recognition';

/**
 * The analytics' items (docs/analytics.md): one per workspace, family, currency, day, invoicing entity (and shard),
 * whose numbers the stream moves with ADD. A family is one partition, so a metric is read with one Query.
 * - BIL: invoiced and credited on the document's issue day, collected and refunded on the transaction's day;
 * - AR: what is outstanding, on the invoice's due day (aged at read time, against today);
 * - REC: recognised revenue, on the first day of its service month;
 * - MRR: the changes of MRR (and their movements) and of active and churned customers and subscriptions, on the day
 *   of the change (a level is the sum of its changes up to a day).
 */
export type Family = 'BIL' | 'AR' | 'REC' | 'MRR';

/** One item's change: numbers to ADD to the item of (family, currency, entity, day). */
export interface Delta {
  family: Family;
  currency: string;
  entity: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  values: Record<string, number>;
}

export const dayOf = (iso: string): string => new Date(iso).toISOString().slice(0, 10);

/** The statuses of an issued document (numbered and standing); a voided one counts no more. */
const ISSUED: ReadonlySet<string> = new Set(['open', 'grace_period', 'to_pay', 'partially_paid', 'paid', 'closed', 'uncollectible']);
/** The statuses whose `amount_due` is a receivable still expected. */
const OUTSTANDING: ReadonlySet<string> = new Set(['open', 'grace_period', 'to_pay', 'partially_paid']);

export type InvoiceFacts = Pick<InvoiceItem, 'type' | 'status' | 'currency' | 'invoicing_entity_id' | 'total_amount' | 'amount_due' | 'emitted_at' | 'due_at' | 'transactions'> & {
  line_items: Pick<InvoiceItem['line_items'][number], 'amount_excluding_tax' | 'period_starts_at' | 'period_ends_at'>[];
};

/** What a document, as it stands, contributes to the analytics (positive; its removal is the negative). */
export function invoiceFacts(invoice: InvoiceFacts | undefined): Delta[] {
  if (!invoice || (invoice.type !== 'invoice' && invoice.type !== 'credit_note')) return [];
  const { currency, invoicing_entity_id: entity } = invoice;
  const at = (family: Family, day: string, values: Record<string, number>): Delta => ({ family, currency, entity, day, values });
  const facts: Delta[] = [];
  if (ISSUED.has(invoice.status)) {
    const credit = invoice.type === 'credit_note';
    facts.push(at('BIL', dayOf(invoice.emitted_at), { [credit ? 'credited' : 'invoiced']: invoice.total_amount }));
    for (const line of invoice.line_items) {
      for (const [month, amount] of lineRecognition(line, invoice.emitted_at)) facts.push(at('REC', `${month}-01`, { recognised: credit ? -amount : amount }));
    }
    if (!credit && OUTSTANDING.has(invoice.status) && invoice.amount_due > 0) facts.push(at('AR', dayOf(invoice.due_at), { outstanding: invoice.amount_due }));
  }
  for (const t of invoice.transactions ?? []) {
    if (t.status !== 'succeeded') continue;
    facts.push({ ...at('BIL', dayOf(t.process_at), { [t.type === 'refund' ? 'refunded' : 'collected']: t.amount }), currency: t.currency ?? currency });
  }
  return facts;
}

/** A line's revenue (excluding tax) by service month; a line without a service period, in its document's month. */
function lineRecognition(line: InvoiceFacts['line_items'][number], emittedAt: string): Map<string, number> {
  if (line.period_starts_at && line.period_ends_at) return recogniseByMonth(line.amount_excluding_tax, line.period_starts_at, line.period_ends_at);
  return new Map([[monthOf(emittedAt), line.amount_excluding_tax]]);
}

export const deltaKey = (d: Pick<Delta, 'family' | 'currency' | 'entity' | 'day'>): string => `${d.family}|${d.currency}|${d.entity}|${d.day}`;

/** `plus` minus `minus`, merged per item, zeros dropped: what one change moves. */
export function difference(plus: readonly Delta[], minus: readonly Delta[]): Delta[] {
  const merged = new Map<string, Delta>();
  const add = (d: Delta, sign: 1 | -1) => {
    const key = deltaKey(d);
    const entry = merged.get(key) ?? { family: d.family, currency: d.currency, entity: d.entity, day: d.day, values: {} };
    for (const [name, value] of Object.entries(d.values)) entry.values[name] = (entry.values[name] ?? 0) + sign * value;
    merged.set(key, entry);
  };
  plus.forEach((d) => add(d, 1));
  minus.forEach((d) => add(d, -1));
  return [...merged.values()]
    .map((d) => ({ ...d, values: Object.fromEntries(Object.entries(d.values).filter(([, v]) => v !== 0)) }))
    .filter((d) => Object.keys(d.values).length > 0);
}
