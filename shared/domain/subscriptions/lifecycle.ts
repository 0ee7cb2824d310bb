import type { Ctx } from '../../context';
import { Conflict } from '../../errors';
import { computePrice } from '../pricing/compute-price';
import { line } from './lines';
import { isMetered } from './metered';
import { NO_PRORATION, partOf, prorationSeconds, type Proration } from './proration';
import { retryChange, settle, upToDate } from './settle';
import { subscriptionListFields, toSubscription, type PauseBilling, type Subscription, type SubscriptionItem } from './subscription';

/** One state move of the subscription, on its version, with the customer's summary when its status changes. */
async function move(ctx: Ctx, id: string, decide: (current: SubscriptionItem, now: string) => { next: Partial<SubscriptionItem>; proration?: Proration }): Promise<Subscription> {
  return retryChange(async () => {
    const current = await upToDate(ctx, id);
    const now = ctx.clock.now().toISOString();
    const decided = decide(current, now);
    const next: SubscriptionItem = { ...current, ...decided.next, updated_at: now, _version: current._version + 1 };
    next.lf = subscriptionListFields(next);
    await settle(ctx, {
      current, next, proration: decided.proration ?? NO_PRORATION, behavior: 'create_invoice',
      period: { starts_at: now, ends_at: current.current_period_ends_at }, summary: next.status !== current.status,
    });
    return toSubscription(next);
  });
}

/**
 * `POST /v1/subscriptions/{id}/pause`: an active subscription becomes `paused` until resumed. `billing: none`
 * (default): its billing dates during the pause issue nothing (the dates pass; nothing is credited for the rest of the
 * period already billed); `continue`: it is billed as usual. 409 unless active.
 */
export const pauseSubscription = (ctx: Ctx, id: string, input: { billing?: PauseBilling } = {}) =>
  move(ctx, id, (current, now) => {
    if (current.status !== 'active') throw new Conflict(`Subscription '${id}' is ${current.status}: only an active subscription can be paused.`, 'invalid_state_transition');
    return { next: { status: 'paused', paused_at: now, pause_billing: input.billing ?? 'none' } };
  });

/**
 * `POST /v1/subscriptions/{id}/resume`: a paused subscription becomes `active`; its next billing date bills it as
 * usual. When a billing date passed unbilled during the pause, the rest of the current period is free, unless
 * `proration_behavior: create_invoice` asks to invoice it now (its in-advance products for the part left). 409
 * unless paused.
 */
export const resumeSubscription = (ctx: Ctx, id: string, input: { proration_behavior?: 'create_invoice' | 'none' } = {}) =>
  move(ctx, id, (current, now) => {
    if (current.status !== 'paused') throw new Conflict(`Subscription '${id}' is ${current.status}: only a paused subscription can be resumed.`, 'invalid_state_transition');
    const unbilled = current.advance_billed === false && current.billing_index >= 1;
    const bill = unbilled && input.proration_behavior === 'create_invoice';
    return {
      next: { status: 'active', paused_at: null, pause_billing: null, ...(bill && { advance_billed: true }) },
      proration: bill ? restOfPeriod(current, now) : NO_PRORATION,
    };
  });

/** The in-advance products for the part of the current period left at `now`. */
function restOfPeriod(s: SubscriptionItem, now: string): Proration {
  const window = { starts_at: s.current_period_started_at, ends_at: s.current_period_ends_at, at: now };
  const { total, remaining } = prorationSeconds(window);
  const lines = s.products
    .filter((p) => p.fee_timing === 'in_advance' && p.billing_interval.period !== 'once' && !isMetered(p) && p.quantity > 0)
    .map((p) => {
      const amount = partOf(computePrice(p.price, { quantity: p.quantity }).amount, remaining, total);
      return line(p, { starts_at: now, ends_at: window.ends_at }, { units: p.quantity, amount, name: `${p.name} (prorated)`, description: `Remaining time from ${now.slice(0, 10)}` });
    })
    .filter((l) => l.gross > 0);
  return { lines, credits: [] };
}

/**
 * `POST /v1/subscriptions/{id}/uncancel`: undoes a cancellation at period end (before that end): the subscription
 * goes on as if it had not been asked. 409 when no cancellation is scheduled (or it is cancelled already).
 */
export const undoCancellation = (ctx: Ctx, id: string) =>
  move(ctx, id, (current) => {
    if (current.status === 'cancelled' || !current.cancel_at_period_end) {
      throw new Conflict(`Subscription '${id}' has no scheduled cancellation to undo.`, 'invalid_state_transition');
    }
    return { next: { cancel_at_period_end: false, cancelled_at: null, ends_at: null, end_index: null } };
  });
