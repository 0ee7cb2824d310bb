/**
 * Prepaid commits (docs/usage-billing.md, "Prepaid commits"; Metronome's and Zuora's prepaid commit with drawdown): a
 * subscription's `prepaid_commit.amount` (minor units) is invoiced in advance at each period start as its own line,
 * and that period's metered usage, priced as without it, is drawn from the commit's balance instead of being
 * invoiced; what exceeds the balance is billed as overage. The balance of the running period (`commit_balance`) is
 * written with the invoice that draws from it, in the same conditioned write (threshold invoices, the period-end
 * invoice, a final invoice), so nothing is drawn twice. What is left at the period's end expires. Pure.
 */
import type { PricedLine } from '../invoices/amounts';
import { termLine } from './commitments';
import type { Period } from './lines';
import type { SubscriptionItem } from './subscription';

export interface PrepaidCommit {
  /** Invoiced at each period start, drawn down by the period's usage (minor units). */
  amount: number;
  /** Unused commit expires at the period's end: rollover is not built (refused when asked). */
  rollover: false;
}

/** The commit of one period: what was invoiced for it at its start and how much of it usage has drawn so far. */
export interface CommitBalance extends Period {
  amount: number;
  drawn: number;
}

/** The in-advance line of the commit for `period`. */
export const commitLine = (commit: PrepaidCommit, period: Period): PricedLine =>
  termLine('Prepaid commit', `${commit.amount} prepaid for the period's usage, drawn down before any overage`, commit.amount, period);

/**
 * The balance at a billing date: the new period's when its commit is invoiced (`commit`), none otherwise; what was
 * left of the period that ended expires. Subscriptions that never had a commit are left without the member.
 */
export function openBalance(s: SubscriptionItem, commit: PrepaidCommit | null, period: Period): { commit_balance?: CommitBalance | null } {
  if (!commit) return s.commit_balance ? { commit_balance: null } : {};
  return { commit_balance: { ...period, amount: commit.amount, drawn: 0 } };
}

/** What is left to draw of the commit of the period starting at `startsAt` (0 when no commit was invoiced for it). */
export function remainingOf(s: SubscriptionItem, startsAt: string): number {
  const balance = s.commit_balance;
  return balance && balance.starts_at === startsAt ? Math.max(0, balance.amount - balance.drawn) : 0;
}

/**
 * Draws usage lines (in order) from `remaining`: a line the balance covers is left off the invoice, a line it covers
 * in part is billed for the rest as `<name> (overage)`. Integers throughout: a line draws min(its gross, what is
 * left), so the sum drawn never exceeds `remaining` and the lines billed total max(0, usage − remaining) exactly.
 */
export function drawDown(lines: readonly PricedLine[], remaining: number): { lines: PricedLine[]; drawn: number } {
  let left = remaining;
  const billed: PricedLine[] = [];
  for (const l of lines) {
    const drawn = Math.min(left, Math.max(0, l.gross));
    left -= drawn;
    const rest = l.gross - drawn;
    if (drawn === 0) billed.push(l);
    else if (rest > 0) {
      billed.push({
        ...l, name: `${l.name} (overage)`, units_count: 1, unit_amount: rest, gross: rest, display_unit_amount: false,
        description: [l.description, `${drawn} drawn from the prepaid commit`].filter((d) => !!d).join(' · '),
      });
    }
  }
  return { lines: billed, drawn: remaining - left };
}

/** The subscription's balance after `drawn` more of the period starting at `startsAt` was used (unchanged at 0). */
export function balanceAfter(s: SubscriptionItem, startsAt: string, drawn: number): { commit_balance?: CommitBalance } {
  const balance = s.commit_balance;
  if (drawn === 0 || !balance || balance.starts_at !== startsAt) return {};
  return { commit_balance: { ...balance, drawn: balance.drawn + drawn } };
}
