/**
 * Billing thresholds (docs/usage-billing.md, "Thresholds"): a subscription's metered usage is invoiced as soon as
 * what it owes since its last invoice reaches `amount_gte` (minor units) or `usage_gte` (units), not only at the
 * period's end (Stripe's `billing_thresholds`, Lago's progressive billing). What each period's usage was invoiced for
 * is kept in the product's `invoiced_usage` record of that period, the one late usage uses (metered.ts), so the
 * period-end invoice and any late-usage line bill only what no threshold invoice billed. Pure.
 */
import type { PricedLine } from '../invoices/amounts';
import { line, type Period } from './lines';
import { balanceAfter, drawDown, remainingOf, type CommitBalance } from './prepaid-commit';
import { isMetered, meteredAmount, meteredUnits, readingKey, usageDescription, type InvoicedUsage, type MeteredUsage, type UsageReadings } from './metered';
import type { StoredSubscriptionProduct, SubscriptionItem } from './subscription';

export interface BillingThresholds {
  /** Invoice the period's usage so far once its price not yet invoiced reaches this (minor units). */
  amount_gte: number | null;
  /** …or once its units not yet invoiced (every metered product's together) reach this. */
  usage_gte: number | null;
}

/** The record of what `period` of a metered product was invoiced for so far, if anything. */
export const recordOf = (p: StoredSubscriptionProduct, period: Period): InvoicedUsage | undefined =>
  p.invoiced_usage?.find((r) => r.starts_at === period.starts_at);

/**
 * A metered product's usage of `period` not invoiced yet: its price now less what was invoiced for the period (never
 * below 0: a decrease is not refunded, as for late usage), and the period's record once this is invoiced.
 */
export function uninvoiced(p: StoredSubscriptionProduct, period: Period, usage: MeteredUsage) {
  const before = recordOf(p, period);
  const amount = meteredAmount(p.price, usage);
  const units = meteredUnits(p.price, usage);
  const record: InvoicedUsage = before && before.amount >= amount ? before : { starts_at: period.starts_at, ends_at: period.ends_at, quantity: usage.quantity, units, amount };
  return { amount: Math.max(0, amount - (before?.amount ?? 0)), units: Math.max(0, units - (before?.units ?? 0)), before, record };
}

/** The line of a product's usage not invoiced yet; `what` names the invoice it is on. */
export function uninvoicedLine(p: StoredSubscriptionProduct, period: Period, usage: MeteredUsage, what: 'threshold' | 'period'): PricedLine | undefined {
  const due = uninvoiced(p, period, usage);
  if (due.units <= 0 && due.amount <= 0) return undefined;
  const earlier = due.before ? `, ${due.before.quantity} invoiced before` : '';
  const description = what === 'threshold'
    ? `${usageDescription(p, usage)} so far${earlier}`
    : [`${usageDescription(p, usage)}${due.before ? ` in all${earlier}` : ''}`, p.description].filter((d) => !!d).join(' · ');
  return line(p, period, { units: due.units, amount: due.amount, description });
}

/** The period the billing cursor is in (usage accrues to it), or null before the first period or when billing is late. */
export function runningPeriod(s: SubscriptionItem, now: string, periodStartOf: (s: SubscriptionItem, j: number) => string): Period | null {
  if (s.status !== 'active' || s.billing_index < 1 || s.next_billing_at === null || s.next_billing_at <= now) return null;
  return { starts_at: periodStartOf(s, s.billing_index - 1), ends_at: s.next_billing_at };
}

/**
 * Whether the usage read for the running period crosses a threshold, and if so the threshold invoice's lines and the
 * products with their records raised to what it bills. Undefined when no threshold is reached. With a prepaid commit
 * (prepaid-commit.ts) the usage is drawn from its balance first: `amount_gte` counts only what the balance does not
 * cover, and a crossing whose usage the balance covers whole invoices nothing (nothing is written either).
 */
export function thresholdStep(s: SubscriptionItem, period: Period, usage: UsageReadings): { lines: PricedLine[]; products: StoredSubscriptionProduct[]; commit_balance?: CommitBalance } | undefined {
  const thresholds = s.billing_thresholds;
  if (!thresholds) return undefined;
  const metered = s.products.filter(isMetered);
  const due = metered.map((p) => ({ p, read: usage.get(readingKey(p.id, period)) })).filter((d): d is { p: StoredSubscriptionProduct; read: MeteredUsage } => !!d.read);
  const owed = due.map(({ p, read }) => uninvoiced(p, period, read));
  const covered = remainingOf(s, period.starts_at);
  const amount = Math.max(0, owed.reduce((sum, o) => sum + o.amount, 0) - covered);
  const units = owed.reduce((sum, o) => sum + o.units, 0);
  const crossed = (thresholds.amount_gte !== null && amount > 0 && amount >= thresholds.amount_gte) || (thresholds.usage_gte !== null && units > 0 && units >= thresholds.usage_gte);
  if (!crossed) return undefined;
  const { lines, drawn } = drawDown(due.flatMap(({ p, read }) => uninvoicedLine(p, period, read, 'threshold') ?? []), covered);
  if (drawn > 0 && !lines.some((l) => l.gross > 0)) return undefined;
  const records = new Map(due.map(({ p }, i) => [p.id, owed[i]!.record]));
  const products = s.products.map((p) => {
    const record = records.get(p.id);
    return record ? { ...p, invoiced_usage: [...(p.invoiced_usage ?? []).filter((r) => r.starts_at !== period.starts_at), record] } : p;
  });
  return { lines, products, ...balanceAfter(s, period.starts_at, drawn) };
}
