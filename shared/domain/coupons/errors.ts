import { Conflict, NotFound, RuleViolation } from '../../errors';

export const couponNotFound = (id: string) => new NotFound('coupon', id);

export const couponDeleted = (id: string) => new Conflict(`Coupon '${id}' is deleted and can no longer be changed.`, 'resource_deleted');

/** Lowering a redemption cap below what was already redeemed would make the past impossible: 422. */
export const limitBelowRedemptions = (what: string, member: string, limit: number, redeemed: number) =>
  new RuleViolation(
    'limit_below_redemptions',
    `${member} cannot be ${limit}: the ${what} has already been redeemed ${redeemed} time${redeemed === 1 ? '' : 's'}.`,
  );
