import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { findCustomerItem } from '../customers/read';
import { readUsage } from '../metering/usage-read';
import { anchorOf, periodStart } from '../subscriptions/subscription';
import { entitlementsKey, toEntitlements, type Entitlement, type EntitlementsItem, type EntitlementUsage, type PeriodCalendar } from './entitlement';

/** The billing period of `calendar` that contains `now` (its trial, before the anchor). */
export function periodOf(calendar: PeriodCalendar, now: string): { starts_at: string; ends_at: string } {
  if (now < anchorOf(calendar)) return { starts_at: calendar.starts_at, ends_at: anchorOf(calendar) };
  let j = 0;
  while (periodStart(calendar, j + 1) <= now) j += 1;
  return { starts_at: periodStart(calendar, j), ends_at: periodStart(calendar, j + 1) };
}

/** A metered entitlement's usage of the granting subscription's current period, and what is left of its allowance. */
async function usageOf(ctx: Ctx, customerId: string, e: Entitlement, now: string): Promise<EntitlementUsage | null> {
  if (!e.meter) return null;
  const period = periodOf(e.meter.calendar, now);
  const { value } = await readUsage(ctx, customerId, e.meter.aggregator, period.starts_at, period.ends_at);
  const used = Math.max(0, value);
  return { aggregator_id: e.meter.aggregator.id, used, remaining: Math.max(0, (e.value as number) - used), period_starts_at: period.starts_at, period_ends_at: period.ends_at };
}

/**
 * `GET /v1/customers/{id}/entitlements`: ONE GetItem of the materialised item (materialise.ts). Only a metered
 * entitlement reads more: its usage so far, from the usage aggregates (docs/entitlements.md says why that read cannot
 * be folded into the item). A customer without the item (nothing granted or overridden yet) is read to tell an
 * unknown one (404) from one entitled to nothing.
 */
export async function readEntitlements(ctx: Ctx, customerId: string) {
  const item = await getItem<EntitlementsItem>(entitlementsKey(ctx, customerId), true);
  if (!item) {
    await findCustomerItem(ctx, customerId);
    return toEntitlements(customerId, undefined);
  }
  const now = ctx.clock.now().toISOString();
  const usage = await Promise.all(item.entitlements.map((e) => (e.type === 'metered' ? usageOf(ctx, customerId, e, now) : null)));
  const result = toEntitlements(customerId, item);
  return { ...result, entitlements: result.entitlements.map((e, i) => ({ ...e, usage: usage[i] ?? null })) };
}
