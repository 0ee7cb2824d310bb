import type { Ctx } from '../../context';
import { retryOnRace } from '../../db/items';
import { asSoftDeleted, softDelete } from '../../db/soft-delete';
import { COUPON, couponItemKey, toCoupon, type Coupon } from './coupon';
import { couponDeleted, limitBelowRedemptions } from './errors';
import { InvalidRequest } from '../../errors';
import { applyCouponUpdate, changedTerms, type CouponUpdateInput } from './input';
import { findCouponItem } from './read';
import { putIfUnchangedCounting } from './write';

/**
 * Partial update of a coupon's name, description and availability (`redemption_limit`, `expiration_date`);
 * `null` clears. The limit cannot go below the redemptions already made (422). Discount terms repeated in the body
 * (Hyperline's update does) must be the coupon's own: a 400 naming them otherwise.
 */
export async function updateCoupon(ctx: Ctx, id: string, input: CouponUpdateInput): Promise<Coupon> {
  return retryOnRace(async () => {
    const current = await findCouponItem(ctx, id);
    if (current.deleted_at) throw couponDeleted(id);
    const changed = changedTerms(current, input);
    if (changed.length > 0) {
      const message = "is fixed once the coupon is created (given, it must be the coupon's)";
      throw new InvalidRequest(`Invalid body: body.${changed[0]} ${message}.`, changed.map((name) => ({ path: `body.${name}`, message })));
    }
    const next = applyCouponUpdate(current, input, ctx.clock.now().toISOString());
    if (next.redemption_limit !== null && next.redemption_limit < current.redemption_count) {
      throw limitBelowRedemptions('coupon', 'redemption_limit', next.redemption_limit, current.redemption_count);
    }
    return toCoupon(await putIfUnchangedCounting(next, current._version, 'redemption_count'));
  });
}

/**
 * Soft delete: `deleted_at` set, out of the list and its count; GET still answers. From then on no promotion code
 * can be created for it and none of its codes can be redeemed. Deleting twice returns the deleted coupon.
 */
export async function deleteCoupon(ctx: Ctx, id: string): Promise<Coupon> {
  return retryOnRace(async () => {
    const current = await findCouponItem(ctx, id);
    if (current.deleted_at) return toCoupon(current);
    const now = ctx.clock.now().toISOString();
    await softDelete(ctx, COUPON, couponItemKey(ctx, id), current._version, now);
    return toCoupon(asSoftDeleted(current, now));
  });
}
