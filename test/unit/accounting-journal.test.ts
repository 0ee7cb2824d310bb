/**
 * Properties of the accounting journal (shared/domain/accounting/journal.ts) over random histories: every entry is
 * balanced, so is every period, entries are numbered 1, 2, 3… per journal, and the receivable account's balance is
 * what the documents say the customers owe.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ExchangeRateMissing } from '../../shared/domain/accounting/conversion';
import { sumCredits, sumDebits, type JournalEntry } from '../../shared/domain/accounting/entries';
import { journalOf, type JournalContext } from '../../shared/domain/accounting/journal';
import { ACCOUNTS } from '../../shared/domain/accounting/accounts';
import { documentsOf, expectedReceivable, planArb, walletMovesArb, walletTransactionsOf } from '../support/journal-histories';

const RUNS = { numRuns: 300 };
const ALL_TIME = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' };

const context = (accountingCurrency = 'EUR'): JournalContext => ({
  accountingCurrency,
  productAccount: (id) => (id === 'itm_a' ? { code: '706100', label: 'Abonnements' } : undefined),
  customer: () => ({ name: 'Client Un', invoicing_entity_id: 'ive_1' }),
});

const balanceOf = (entries: readonly JournalEntry[], account: string) =>
  entries.flatMap((e) => e.lines).filter((l) => l.account === account).reduce((s, l) => s + l.debit - l.credit, 0);

const historyArb = fc.record({ plans: fc.array(planArb, { maxLength: 8 }), wallet: walletMovesArb });

describe('the journal', () => {
  it('balances every entry and every period, and numbers each journal 1, 2, 3… without gaps', () => {
    fc.assert(fc.property(historyArb, fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 40 }), ({ plans, wallet }, start, length) => {
      const invoices = plans.flatMap((p, n) => documentsOf(p, n));
      const from = new Date(Date.UTC(2026, 9, 1) + start * 86_400_000).toISOString();
      const to = new Date(Date.parse(from) + length * 86_400_000).toISOString();
      const entries = journalOf({ invoices, walletTransactions: walletTransactionsOf(wallet) }, context(), { from, to });
      for (const e of entries) {
        expect(sumDebits(e.lines)).toBe(sumCredits(e.lines));
        expect(e.lines.every((l) => l.debit >= 0 && l.credit >= 0 && (l.debit === 0) !== (l.credit === 0))).toBe(true);
        expect(e.date >= from && e.date < to).toBe(true);
      }
      const lines = entries.flatMap((e) => e.lines);
      expect(sumDebits(lines)).toBe(sumCredits(lines));
      for (const code of ['VE', 'BQ', 'OD']) {
        expect(entries.filter((e) => e.journal === code).map((e) => e.number)).toEqual(entries.filter((e) => e.journal === code).map((_, i) => i + 1));
      }
    }), RUNS);
  });

  it("leaves on the receivable exactly what the documents say is owed: open invoices' amount_due, less credit given without refund", () => {
    fc.assert(fc.property(historyArb, ({ plans, wallet }) => {
      const invoices = plans.flatMap((p, n) => documentsOf(p, n));
      const entries = journalOf({ invoices, walletTransactions: walletTransactionsOf(wallet) }, context(), ALL_TIME);
      expect(balanceOf(entries, ACCOUNTS.receivable.code)).toBe(expectedReceivable(invoices));
    }), RUNS);
  });

  it('books documents in another currency at their stored rate, still balanced, and keeps their own amounts beside', () => {
    fc.assert(fc.property(fc.array(planArb, { minLength: 1, maxLength: 5 }), fc.double({ min: 0.01, max: 200, noNaN: true }), (plans, rate) => {
      const invoices = plans.flatMap((p, n) => documentsOf(p, n, 'USD', rate));
      const entries = journalOf({ invoices, walletTransactions: [] }, context('EUR'), ALL_TIME);
      for (const e of entries) {
        expect(sumDebits(e.lines)).toBe(sumCredits(e.lines));
        expect(e.lines.every((l) => l.currency === 'USD' && l.amount_currency !== null)).toBe(true);
      }
    }), RUNS);
  });

  it('refuses a document in another currency without a stored rate, naming it', () => {
    const invoices = documentsOf({ lines: [{ ex: 1000, rate: 20, product: null }], day: 3, steps: [], status: 'to_pay' }, 7, 'USD', null);
    expect(() => journalOf({ invoices, walletTransactions: [] }, context('EUR'), ALL_TIME)).toThrow(ExchangeRateMissing);
    expect(() => journalOf({ invoices, walletTransactions: [] }, context('EUR'), ALL_TIME)).toThrow(/F-inv_7/);
  });

  it("posts a product's lines to its account_code and the rest to the default revenue account", () => {
    const invoices = documentsOf({ lines: [{ ex: 1000, rate: 20, product: 'itm_a' }, { ex: 500, rate: 20, product: 'itm_b' }], day: 3, steps: [], status: 'to_pay' }, 1);
    const [entry] = journalOf({ invoices, walletTransactions: [] }, context(), ALL_TIME);
    expect(entry!.lines.map((l) => [l.account, l.debit, l.credit])).toEqual([['706100', 0, 1000], ['44572000', 0, 300], ['706000', 0, 500], ['411000', 1800, 0]]);
  });
});
