import type { Ctx } from '../../context';
import { Conflict } from '../../errors';
import { cancelledNow } from './billing';
import type { Period } from './lines';
import { isMetered, readingKey, readMeteredUsage } from './metered';
import { drawDown, remainingOf } from './prepaid-commit';
import { finalProration, NO_PRORATION, type Proration } from './proration';
import { retryChange, settle, upToDate } from './settle';
import { uninvoicedLine } from './thresholds';
import { periodStart, subscriptionListFields, toSubscription, type Subscription, type SubscriptionItem } from './subscription';

export type CancelMode = 'end_of_period' | 'immediately';

export interface CancelInput {
  mode?: CancelMode;
  /** `immediately` only: credit the unused part of the period's in-advance products (to the customer's wallet). */
  prorate?: boolean;
}

/** Whether the period running at a cancellation now still owes its in-arrears part (not in a pause without billing). */
const owesArrears = (s: SubscriptionItem) => (s.status === 'active' || s.status === 'paused') && s.billing_index >= 1 && !(s.status === 'paused' && s.pause_billing === 'none');

/**
 * The final invoice of a period ended now: its metered usage so far (read over [period start, now), priced as at the
 * period's end), its fixed-quantity in-arrears products for the elapsed part and, with `prorate`, a credit for the
 * unused part of its in-advance products.
 */
async function finalCharges(ctx: Ctx, s: SubscriptionItem, now: string, prorate: boolean): Promise<Proration> {
  if (!((s.status === 'active' || s.status === 'paused') && s.billing_index >= 1)) return NO_PRORATION;
  const window = { starts_at: s.current_period_started_at, ends_at: s.current_period_ends_at, at: now };
  const arrearsDue = owesArrears(s);
  const result = finalProration(s.products, window, { prorate, advanceBilled: s.advance_billed ?? true, arrearsDue });
  if (!arrearsDue || now <= window.starts_at) return result;
  const period: Period = { starts_at: window.starts_at, ends_at: now };
  const metered = s.products.filter(isMetered);
  const usage = await readMeteredUsage(ctx, s.customer_id, metered.map((product) => ({ product, period })));
  // Less what threshold invoices billed of the period already (its record starts with the period), drawn from what
  // is left of the period's prepaid commit first (the subscription ends with this invoice: nothing draws after it).
  const usageLines = metered.flatMap((p) => {
    const read = usage.get(readingKey(p.id, period))!;
    return uninvoicedLine(p, period, read, 'period') ?? [];
  });
  return { lines: [...drawDown(usageLines, remainingOf(s, period.starts_at)).lines, ...result.lines], credits: result.credits };
}

/**
 * `immediately`: cancelled now, out of the scheduling index; the period running is closed by a final invoice (its
 * metered usage and in-arrears products so far) and, with `prorate`, a credit for the unused in-advance part (on that
 * invoice, the surplus to the wallet), in the same transaction as the cancellation. `end_of_period` (default): stays
 * active until the end of its current period (`ends_at`, `cancel_at_period_end`); the billing run bills that period's
 * in-arrears products at that date, then cancels it (undo with `reactivate` until then). A pending subscription is
 * cancelled at once in either mode; one in its trial ends with the trial at period end. `cancelled_at` is when the
 * cancellation was asked. Cancelled already, or already set to end at its period's end and asked again for
 * `end_of_period` → 409.
 */
export async function cancelSubscription(ctx: Ctx, id: string, input: CancelInput = {}): Promise<Subscription> {
  const mode = input.mode ?? 'end_of_period';
  return retryChange(async () => {
    const current = await upToDate(ctx, id);
    if (current.status === 'cancelled') throw new Conflict(`Subscription '${id}' is already cancelled.`);
    const now = ctx.clock.now().toISOString();
    if (mode === 'immediately' || current.status === 'pending') {
      const next = cancelledNow(current, now);
      const proration = await finalCharges(ctx, current, now, input.prorate === true);
      await settle(ctx, { current, next, proration, behavior: 'create_invoice', period: { starts_at: current.current_period_started_at, ends_at: now }, summary: true });
      return toSubscription(next);
    }
    if (current.cancel_at_period_end) throw new Conflict(`Subscription '${id}' is already set to end on ${current.ends_at}.`);
    const endIndex = current.status === 'trialing' ? 0 : Math.max(1, current.billing_index);
    const next: SubscriptionItem = {
      ...current, cancel_at_period_end: true, cancelled_at: now, ends_at: periodStart(current, endIndex), end_index: endIndex,
      updated_at: now, _version: current._version + 1,
    };
    next.lf = subscriptionListFields(next);
    await settle(ctx, { current, next, proration: NO_PRORATION, behavior: 'none', period: { starts_at: now, ends_at: now }, summary: false });
    return toSubscription(next);
  });
}
