import type { Ctx } from '../../context';
import { periodAmount } from '../subscriptions/recurring';
import { checkProducts, keepIdentities } from '../subscriptions/prepare';
import { prorate } from '../subscriptions/proration';
import type { StoredSubscriptionProduct, SubscriptionItem } from '../subscriptions/subscription';
import { migrates } from './eligibility';
import { checkedMigration, memberPage, subscriptionsById } from './migrate';
import type { MigrationInput } from './migration';

/** A preview examines at most this many of the plan's subscriptions (the migration itself works them all). */
export const PREVIEW_EXAMINED = 1_000;
/** And lists at most this many of those that would move. */
export const PREVIEW_LISTED = 100;

/** One subscription as the migration would move it: when, what a period bills before and after, and any proration now. */
function previewOf(s: SubscriptionItem, next: StoredSubscriptionProduct[], rule: { effective: 'now' | 'next_period'; proration: 'prorate' | 'none' }, now: string) {
  const running = (s.status === 'active' || s.status === 'paused') && s.billing_index >= 1;
  const later = rule.effective === 'next_period' && running;
  const kept = keepIdentities(s.products, next);
  const proration = later || !running || rule.proration === 'none'
    ? { lines: [], credits: [] }
    : prorate(s.products, kept, { starts_at: s.current_period_started_at, ends_at: s.current_period_ends_at, at: now }, s.advance_billed ?? true);
  return {
    subscription_id: s.id,
    customer_id: s.customer_id,
    plan_version_id: s.plan_version_id ?? null,
    effective_at: later ? s.next_billing_at! : now,
    current_period_amount: periodAmount(s.products),
    new_period_amount: periodAmount(kept),
    proration_charge: proration.lines.reduce((sum, l) => sum + l.gross, 0),
    proration_credit: proration.credits.reduce((sum, c) => sum + (c.discount_amount ?? 0), 0),
  };
}

/**
 * `POST /v1/plans/{id}/migrations/preview`: what the same body would do, computed and written nowhere: which
 * subscriptions move (the same rule as the migration: eligibility.ts), when, what a period bills before and after
 * (excluding tax and coupons; metered usage excluded), and the proration a migration now would invoice. It examines
 * the first PREVIEW_EXAMINED subscriptions of the plan and lists up to PREVIEW_LISTED of those that move.
 */
export async function previewMigration(ctx: Ctx, planId: string, input: MigrationInput) {
  const { plan, to, rule } = await checkedMigration(ctx, planId, input);
  const next = (await checkProducts(ctx, to.products, plan.currency)).products;
  const now = ctx.clock.now().toISOString();
  const moving: ReturnType<typeof previewOf>[] = [];
  let examined = 0;
  let cursor: Parameters<typeof memberPage>[1]['cursor'] = null;
  let complete = false;
  while (examined < PREVIEW_EXAMINED) {
    const page = await memberPage(ctx, { ...rule, cursor }, 100);
    examined += page.ids.length;
    const rules = { ...rule, id: '~' }; // no migration yet: sorts after every migration id, so none counts as this one
    for (const s of await subscriptionsById(ctx, page.ids)) if (migrates(rules, s)) moving.push(previewOf(s, next, rule, now));
    cursor = page.cursor;
    if (cursor === null) {
      complete = true;
      break;
    }
  }
  return { to_version_id: to.id, effective: rule.effective, proration: rule.proration, examined, complete, migrating: moving.length, subscriptions: moving.slice(0, PREVIEW_LISTED) };
}
