import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toCoupon, type CouponItem } from './coupon';

/** Without the redemption counter: a redemption is not an edit of the coupon (no event, like Stripe). */
const edited = (item: CouponItem) => ({ ...toCoupon(item), redemption_count: 0 });

/** Coupon changes → `coupon.created`, `coupon.deleted` (soft delete), `coupon.updated` for any visible edit. */
export function couponEvents(before: CouponItem | undefined, after: CouponItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toCoupon(after);
  if (!before) return [{ type: 'coupon.created', data }];
  if (!before.deleted_at && after.deleted_at) return [{ type: 'coupon.deleted', data }];
  return changedPublicly(edited(before), edited(after)) ? [{ type: 'coupon.updated', data }] : [];
}
