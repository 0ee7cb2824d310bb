import { requireAll } from './common';
import { dateTime, id, nullable, object, type Schema } from './common';
import { MAX_REDEMPTIONS } from './coupons';
import { listQuerySchema } from './list-query';
import { PROMOTION_CODE_PATTERN } from './bounds';
import { promotionCodeFilters } from './list-filters';

export const PROMOTION_DURATION_PERIODS = ['once', 'days', 'weeks', 'months', 'years'] as const;

export const promotionCode = { type: 'string', minLength: 1, maxLength: 64, pattern: PROMOTION_CODE_PATTERN };

/**
 * What may change after creation: the restrictions and availability of the code. The code itself, its coupon and
 * its duration are fixed (the discount a customer was promised does not move). `only_for_first_time_order` comes
 * first: the route matrix sends a wrong type for the first member and expects a 400.
 */
const editableMembers: Record<string, Schema> = {
  only_for_first_time_order: { type: 'boolean' },
  customer_id: nullable(id),
  plan_id: nullable(id),
  product_id: nullable(id),
  expires_at: nullable(dateTime),
  max_redemptions: nullable({ type: 'integer', minimum: 1, maximum: MAX_REDEMPTIONS }),
};

export const promotionCodeCreateBody = object(
  {
    code: promotionCode,
    coupon_id: id,
    ...editableMembers,
    duration_count: nullable({ type: 'integer', minimum: 1, maximum: 1000 }),
    duration_period: nullable({ type: 'string', enum: PROMOTION_DURATION_PERIODS }),
    // Hyperline's create example sends it; the count is the service's, so a new code may only say it has none.
    current_redemptions: { type: ['integer', 'null'], minimum: 0, maximum: 0, description: "Hyperline's: the redemptions so far; a new code has none (0 or null)." },
  },
  ['code', 'coupon_id'],
);
export const promotionCodeUpdateBody = object(editableMembers);

/** `code` filters ignore case, equality included (codes are case-insensitive); see listPromotionCodes. */
export const promotionCodeListQuery = listQuerySchema(promotionCodeFilters, { sortable: true });

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const nint = { type: ['integer', 'null'] };
const ndateTime = { anyOf: [dateTime, { type: 'null' }] };

export const promotionCodeResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, code: str, coupon_id: str, client_id: nstr, customer_id: nstr, plan_id: nstr, product_id: nstr,
    created_at: dateTime, updated_at: dateTime, expires_at: ndateTime, max_redemptions: nint, current_redemptions: { type: 'integer' },
    duration_count: nint, duration_period: { anyOf: [{ type: 'string', enum: PROMOTION_DURATION_PERIODS }, { type: 'null' }] },
    only_for_first_time_order: { type: 'boolean' }, deleted_at: ndateTime,
  },
});
