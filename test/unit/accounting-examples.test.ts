/**
 * The worked examples of docs/accounting.md are this test's expectations: each `<!-- example: name -->` block is
 * the journal of the history of that name, as the journal writes it.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { decimal } from '../../shared/domain/accounting/decimals';
import type { JournalEntry } from '../../shared/domain/accounting/entries';
import { journalOf } from '../../shared/domain/accounting/journal';
import type { InvoiceItem } from '../../shared/domain/invoices/invoice';
import { documentsOf, walletTransactionsOf, type DocumentPlan } from '../support/journal-histories';

const plan = (p: Partial<DocumentPlan>): DocumentPlan => ({ lines: [{ ex: 10_000, rate: 20, product: 'itm_a' }, { ex: 5_000, rate: 20, product: null }], day: 1, steps: [], status: 'to_pay', ...p });

/** The histories the examples name. */
const EXAMPLES: Record<string, { invoices: InvoiceItem[]; wallet?: Parameters<typeof walletTransactionsOf>[0]; currency?: string }> = {
  'invoice': { invoices: documentsOf(plan({}), 1) },
  'card-payment': { invoices: documentsOf(plan({ lines: [{ ex: 5_000, rate: 20, product: null }], steps: [{ kind: 'pay', share: 1, way: 'sandbox' }] }), 1) },
  'credit-note-refunded': { invoices: documentsOf(plan({ steps: [{ kind: 'pay', share: 1, way: 'stripe' }, { kind: 'credit', share: 0.5, method: 'payment_method' }] }), 1) },
  'wallet': {
    invoices: documentsOf(plan({ lines: [{ ex: 3_000, rate: 0, product: null }], steps: [{ kind: 'pay', share: 1, way: 'wallet' }] }), 2),
    wallet: [{ type: 'credit_free', amount: 5_000, day: 0 }],
  },
  'write-off': { invoices: documentsOf(plan({ lines: [{ ex: 1_000, rate: 20, product: null }], steps: [{ kind: 'pay', share: 0.5, way: 'manual' }, { kind: 'uncollectible' }] }), 3) },
  'foreign-currency': { invoices: documentsOf(plan({ lines: [{ ex: 10_000, rate: 0, product: null }] }), 4, 'USD', 0.9234), currency: 'EUR' },
};

/** The example rendering: one line per journal line. */
function rendered(entries: readonly JournalEntry[], currency = 'EUR'): string {
  return entries.flatMap((e) => e.lines.map((l) => [
    `${e.journal}-${e.number}`, e.date.slice(0, 10), l.account.padEnd(8), l.account_label.padEnd(40), (l.debit ? decimal(l.debit, currency) : '').padStart(8),
    (l.credit ? decimal(l.credit, currency) : '').padStart(8), l.amount_currency === null ? '' : `${decimal(l.amount_currency, l.currency!)} ${l.currency}`,
  ].join('  ').trimEnd())).join('\n');
}

const doc = readFileSync(new URL('../../docs/accounting.md', import.meta.url), 'utf8');
const blocks = [...doc.matchAll(/<!-- example: ([\w-]+) -->\s*```text\n([\s\S]*?)\n```/g)].map((m) => [m[1]!, m[2]!] as const);

describe('docs/accounting.md worked examples', () => {
  it('has every example', () => {
    expect(blocks.map(([name]) => name).sort()).toEqual(Object.keys(EXAMPLES).sort());
  });
  it.each(blocks)('%s', (name, text) => {
    const example = EXAMPLES[name]!;
    const entries = journalOf(
      { invoices: example.invoices, walletTransactions: walletTransactionsOf(example.wallet ?? []) },
      { accountingCurrency: example.currency ?? 'EUR', productAccount: (id) => (id === 'itm_a' ? { code: '706100', label: 'Abonnements' } : undefined), customer: () => ({ name: 'Client Un', invoicing_entity_id: 'ive_1' }) },
      { from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' },
    );
    expect(rendered(entries)).toBe(text.trimEnd());
  });
});
