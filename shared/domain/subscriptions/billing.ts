import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { DomainError } from '../../errors';
import type { PricedLine } from '../invoices/amounts';
import { createInvoice } from '../invoices/create';
import type { CouponTerms } from '../invoices/invoice';
import { line, type Period } from './lines';
import { creditUse } from './proration';
import {
  billingDueKeys, dueAt, TRIAL_NOTICE_MS, couponsFor, periodStart, subscriptionKey, subscriptionListFields, subscriptionListPartition, type StoredSubscriptionProduct, type SubscriptionItem,
} from './subscription';
import {
  isMetered, meteredAmount, meteredUnits, periodClosedAt, readingKey, readMeteredUsage, usageDescription, usageReads,
  type InvoicedUsage, type MeteredUsage, type UsageReadings,
} from './metered';
import { committedCountLine, minimumFeeLine } from './commitments';
import { commitLine, drawDown, openBalance, remainingOf } from './prepaid-commit';
import { recordOf, uninvoiced, uninvoicedLine } from './thresholds';
import { summaryAlso, summaryUpdate, withoutSchedule } from './write';

/** At most this many billing dates are processed per subscription and run; the rest waits for the next run. */
export const MAX_BILLING_STEPS = 36;

/** The subscription changed between its read and the invoice's transaction: billed by another run, or changed. */
export class SubscriptionChanged extends Error {
  constructor(readonly id: string) {
    super(`Subscription '${id}' changed since it was read (already billed for this date, or updated)`);
  }
}

export type { Period } from './lines';

/** What one billing date of a subscription does: the invoice's lines (maybe none) and the subscription after it. */
export interface BillingStep {
  /** The billing date (`next_billing_at` of the subscription read). */
  at: string;
  lines: PricedLine[];
  /** The subscription's coupons that still apply to this invoice, then the proration credits it takes. */
  coupons: CouponTerms[];
  /** The invoice's billing period. */
  period: Period;
  next: SubscriptionItem;
}

const dateOf = (iso: string) => iso.slice(0, 10);

/** A migration at the next period (docs/plans.md) takes effect with its scheduled products: the version moves with them. */
const planVersionAfter = (s: SubscriptionItem) =>
  s.scheduled_plan_version_id ? { plan_version_id: s.scheduled_plan_version_id, scheduled_plan_version_id: null } : {};

/**
 * A metered product at one billing date (pure; its usage read before, see metered.ts): the arrears line of the period
 * that just ended (left out at 0 units), a late-usage line for each earlier invoiced period whose usage is now priced
 * above what it was invoiced for (the difference; a decrease bills nothing), and the product with its records moved
 * on: the new period's added, each raised to what was billed now, the ones closed to late usage by `now` dropped.
 * The ended period's usage is drawn from what is `left` of its prepaid commit first (prepaid-commit.ts).
 */
function meteredStep(p: StoredSubscriptionProduct, previous: Period | null, usage: UsageReadings, now: string, earlier = { amount: 0 }, commit = { left: 0 }) {
  const reading = (period: Period): MeteredUsage => {
    const found = usage.get(readingKey(p.id, period));
    if (!found) throw new Error(`No usage read for subscription product '${p.id}' over ${period.starts_at} – ${period.ends_at}`);
    return found;
  };
  const lines: PricedLine[] = [];
  const records: InvoicedUsage[] = [];
  // A record of the period ending now was written by a threshold invoice: the period's own line bills the rest.
  for (const record of (p.invoiced_usage ?? []).filter((r) => r.starts_at !== previous?.starts_at)) {
    const metered = reading(record);
    const amount = meteredAmount(p.price, metered);
    const units = meteredUnits(p.price, metered);
    if (amount <= record.amount) {
      records.push(record);
      continue;
    }
    lines.push(
      line(p, { starts_at: record.starts_at, ends_at: record.ends_at }, {
        units: Math.max(0, units - record.units),
        amount: amount - record.amount,
        name: `${p.name} (late usage)`,
        description: `Late usage for ${dateOf(record.starts_at)} – ${dateOf(record.ends_at)}: ${usageDescription(p, metered)} in all, ${record.quantity} invoiced before`,
      }),
    );
    records.push({ ...record, quantity: metered.quantity, units, amount });
  }
  if (previous) {
    // The period that just ended comes first, before the late-usage lines of earlier ones.
    const ended = reading(previous);
    const rest = uninvoicedLine(p, previous, ended, 'period');
    const trueUp = committedCountLine(p, previous, ended);
    const overage = drawDown(rest ? [rest] : [], commit.left);
    commit.left -= overage.drawn;
    lines.unshift(...overage.lines, ...(trueUp ? [trueUp] : []));
    const before = recordOf(p, previous);
    // What threshold invoices billed of the period: the minimum fee counts it with this invoice.
    if (before) earlier.amount += before.amount;
    records.push(uninvoiced(p, previous, ended).record);
  }
  const open = records.filter((r) => now < periodClosedAt(r.ends_at));
  return { lines, product: { ...p, invoiced_usage: open } };
}

/**
 * The billing date `j = billing_index` (the start of period j), as a pure function of the subscription and of the
 * usage read for it (`usage`: see metered.ts, `usageReads`):
 * - in-advance recurring products (flat_fee, seat, credit) for period j, unless the subscription ends at this date,
 *   and the prepaid commit of period j (its balance opened; what was left of period j − 1's expires);
 * - one-off products not billed yet, unless it ends at this date (so: on the first invoice);
 * - in-arrears products (dynamic) for period j − 1, when j ≥ 1: a metered one at its usage of that period, priced by
 *   its prices, then its late usage of earlier invoiced periods (meteredStep); the others at their quantity;
 * - the proration held for the next invoice (`next_invoice`): its lines, and its credits after the coupons (a credit
 *   the invoice cannot take whole waits for the next one);
 * lines of quantity 0 are left out. A change scheduled for this date (`scheduled_products`) applies now: the arrears of
 * the period that ended are the old list's, the new period's lines the new list's. A subscription paused without
 * billing issues nothing at its billing dates (the date passes). Then the cursor moves to date j + 1 and the current
 * period to j; or, at the end date of a cancellation at period end, the subscription is cancelled and leaves the
 * scheduling index. Period 0 starts at the end of the trial, if any: the trial's usage is not billed.
 */
export function billingStep(ctx: Ctx, s: SubscriptionItem, now: string, usage: UsageReadings = new Map()): BillingStep {
  const j = s.billing_index;
  const at = periodStart(s, j);
  const current: Period = { starts_at: at, ends_at: periodStart(s, j + 1) };
  const previous: Period | null = j >= 1 ? { starts_at: periodStart(s, j - 1), ends_at: at } : null;
  const ending = s.end_index !== null && j >= s.end_index;
  const silent = s.status === 'paused' && s.pause_billing === 'none';
  const upcoming = s.scheduled_products ?? s.products;
  const billable = s.products.filter((p) => p.quantity > 0 && !isMetered(p));
  const startsNow = ending || silent ? [] : upcoming.filter((p) => p.quantity > 0 && !isMetered(p));
  const commit = ending || silent ? null : (s.prepaid_commit ?? null);
  const advance = [...startsNow.filter((p) => p.fee_timing === 'in_advance' && p.billing_interval.period !== 'once').map((p) => line(p, current)), ...(commit ? [commitLine(commit, current)] : [])];
  const once = startsNow.filter((p) => p.billing_interval.period === 'once' && !p.billed);
  const thresholdBilled = { amount: 0 };
  const commitLeft = { left: previous ? remainingOf(s, previous.starts_at) : 0 };
  const metered = silent ? new Map() : new Map(s.products.filter(isMetered).map((p) => [p.id, meteredStep(p, previous, usage, now, thresholdBilled, commitLeft)]));
  const arrears = previous && !silent ? billable.filter((p) => p.fee_timing === 'in_arrears').map((p) => line(p, previous)) : [];
  const usageLines = [...metered.values()].flatMap((m) => m.lines);
  const held = silent ? null : (s.pending_proration ?? null);
  const charged = [...advance, ...once.map((p) => line(p, null)), ...arrears, ...usageLines, ...(held?.lines ?? [])];
  const minimum = previous && !silent ? minimumFeeLine(s.minimum_invoice_fee, charged.reduce((sum, l) => sum + l.gross, 0) + thresholdBilled.amount, previous) : undefined;
  const lines = minimum ? [...charged, minimum] : charged;
  const period = advance.length === 0 && arrears.length + usageLines.length > 0 && previous ? previous : current;
  const billedOnce = new Set(once.map((p) => p.id));
  const products = upcoming.map((p) => metered.get(p.id)?.product ?? (billedOnce.has(p.id) ? { ...p, billed: true } : p));
  const own = couponsFor(s, period.starts_at);
  const credits = held?.credits ?? [];
  const { taken, left } = creditUse(lines, own, credits);
  const issues = lines.some((l) => l.gross > 0);
  const base = {
    ...withoutSchedule(s), products, scheduled_products: null, ...planVersionAfter(s), billing_index: j + 1, first_invoice_issued: s.first_invoice_issued || issues,
    advance_billed: !ending && !silent, ...openBalance(s, commit, current), pending_proration: left.length > 0 ? { lines: [], credits: left } : silent ? (s.pending_proration ?? null) : null,
    updated_at: now, _version: s._version + 1,
  };
  const next: SubscriptionItem = ending
    ? { ...base, status: 'cancelled', next_billing_at: null }
    : { ...base, status: s.status === 'paused' ? 'paused' : 'active', next_billing_at: current.ends_at, current_period_started_at: current.starts_at, current_period_ends_at: current.ends_at };
  Object.assign(next, { lf: subscriptionListFields(next), gsi1pk: subscriptionListPartition(ctx, s.id) });
  if (!ending) Object.assign(next, billingDueKeys(ctx, next));
  return { at, lines, coupons: [...own, ...taken], period, next };
}

/** The subscription moved past a billing date, on the condition that nobody did first (the billed-through cursor). */
export const advanceItem = (next: SubscriptionItem, read: SubscriptionItem): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: next,
    ConditionExpression: 'next_billing_at = :at AND #v = :v',
    ExpressionAttributeNames: { '#v': '_version' },
    ExpressionAttributeValues: { ':at': read.next_billing_at, ':v': read._version },
  },
});

const customerGone = (error: unknown) => error instanceof DomainError && error.code === 'customer_not_found';

/**
 * The scheduled billing of one subscription: every billing date up to now, one at a time, each in ONE transaction
 * with its invoice (`createInvoice`'s, with the subscription's conditional move from the date read to the next one
 * and its summary on the customer). A run that lost the race to another (or that repeats one) fails that condition
 * and adds nothing: it reads the subscription again and goes on from where the winner left it. A date with nothing
 * to bill moves the cursor alone. A subscription whose customer was deleted is cancelled (nobody can be invoiced).
 * Returns how many invoices this call issued.
 */
export async function billSubscription(ctx: Ctx, id: string): Promise<number> {
  let invoices = 0;
  let s = await getItem<SubscriptionItem>(subscriptionKey(ctx, id), true);
  for (let step = 0; s && step < MAX_BILLING_STEPS; step++) {
    const now = ctx.clock.now().toISOString();
    if (s.status === 'cancelled' || s.next_billing_at === null || dueAt(s) > now) break;
    const told = trialNotice(ctx, s, now);
    if (told) {
      // Before its first billing date: the trial starts, or its end is near (each write is the event that tells it).
      try {
        await transactWrite([advanceItem(told, s), summaryUpdate(ctx, told)]);
        s = told;
      } catch (error) {
        if (!(error instanceof ConditionFailed && error.index === 0)) throw error;
        s = await getItem<SubscriptionItem>(subscriptionKey(ctx, id), true); // another run got there first
      }
      continue;
    }
    if (s.next_billing_at > now) break;
    const usage = await readMeteredUsage(ctx, s.customer_id, usageReads(s));
    const { lines, coupons, period, next } = billingStep(ctx, s, now, usage);
    const total = lines.reduce((sum, l) => sum + l.gross, 0);
    try {
      if (total > 0) {
        await createInvoice(
          ctx,
          { customer_id: s.customer_id, invoicing_entity_id: s.invoicing_entity_id, currency: s.currency, status: 'to_pay', period_starts_at: period.starts_at, period_ends_at: period.ends_at },
          { lines, coupons, subscriptionId: s.id, collectionMethod: s.collection_method, continuing: true, also: [advanceItem(next, s)], alsoFailed: () => new SubscriptionChanged(s!.id), customer: summaryAlso(next) },
        );
        invoices += 1;
      } else {
        await transactWrite([advanceItem(next, s), summaryUpdate(ctx, next)]);
      }
      s = next;
    } catch (error) {
      if (error instanceof SubscriptionChanged || (error instanceof ConditionFailed && error.index === 0)) {
        s = await getItem<SubscriptionItem>(subscriptionKey(ctx, id), true);
        continue;
      }
      if (customerGone(error)) {
        await cancelForGoneCustomer(ctx, s, now);
        break;
      }
      throw error;
    }
  }
  return invoices;
}

/**
 * The writes a trial needs before its end: `pending → trialing` at `starts_at`, and `trial_ending_notified` once
 * within TRIAL_NOTICE_MS of its end (`subscription.trial_ending`). Undefined when neither is due.
 */
export function trialNotice(ctx: Ctx, s: SubscriptionItem, now: string): SubscriptionItem | undefined {
  if (!s.trial_ends_at || s.billing_index > 0) return undefined;
  const starts = s.status === 'pending' && s.starts_at <= now;
  const notice = !s.trial_ending_notified && Date.parse(now) >= Date.parse(s.trial_ends_at) - TRIAL_NOTICE_MS && s.trial_ends_at > now;
  if (!starts && !notice) return undefined;
  const next: SubscriptionItem = {
    ...withoutSchedule(s), status: starts ? 'trialing' : s.status, trial_ending_notified: s.trial_ending_notified || notice, updated_at: now, _version: s._version + 1,
  };
  next.lf = subscriptionListFields(next);
  Object.assign(next, billingDueKeys(ctx, next));
  return next;
}

/** Immediate cancellation, as the cancel route makes it (cancel.ts); exported for the billing run. */
export function cancelledNow(s: SubscriptionItem, now: string): SubscriptionItem {
  const next: SubscriptionItem = {
    ...withoutSchedule(s), status: 'cancelled', cancel_at_period_end: false, cancelled_at: now, ends_at: now, next_billing_at: null, end_index: null,
    updated_at: now, _version: s._version + 1,
  };
  next.lf = subscriptionListFields(next);
  return next;
}

async function cancelForGoneCustomer(ctx: Ctx, s: SubscriptionItem, now: string): Promise<void> {
  const next = cancelledNow(s, now);
  await transactWrite([advanceItem(next, s), summaryUpdate(ctx, next)]).catch((error) => {
    if (!(error instanceof ConditionFailed)) throw error; // changed meanwhile: the next run sees it again
  });
}
