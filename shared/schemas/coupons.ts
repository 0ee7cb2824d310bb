import { requireAll } from './common';
import { currency, dateTime, id, name, nullable, object, text, type Schema } from './common';
import { pagingQuery } from './list-query';

export const COUPON_TYPES = ['amount', 'percent'] as const;
export const COUPON_REPEATS = ['once', 'forever', 'duration'] as const;
export const DURATION_PERIODS = ['days', 'weeks', 'months', 'years'] as const;

/** Upper bounds that keep amounts and counters far inside exact integers. */
export const MAX_AMOUNT = 1_000_000_000_000_000;
export const MAX_REDEMPTIONS = 1_000_000_000;

export const couponDuration = object(
  { period: { type: 'string', enum: DURATION_PERIODS }, count: { type: 'integer', minimum: 1, maximum: 1000 } },
  ['period', 'count'],
);

/**
 * What may change after creation: the coupon's name and availability (how many times, until when). The discount
 * itself (type, amount or percent, currency, repeat, duration, products) is fixed once created, as Stripe does.
 */
const editableMembers: Record<string, Schema> = {
  name,
  description: nullable(text(1000)),
  redemption_limit: nullable({ type: 'integer', minimum: 1, maximum: MAX_REDEMPTIONS }),
  expiration_date: nullable(dateTime),
};

/** Cross-member rules (amount needs currency, percent ≤ 2 decimals, …) are checked by the domain (input.ts). */
const couponMembers: Record<string, Schema> = {
  ...editableMembers,
  type: { type: 'string', enum: COUPON_TYPES },
  discount_amount: nullable({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT }),
  currency: nullable(currency),
  discount_percent: nullable({ type: 'number', exclusiveMinimum: 0, maximum: 100, multipleOf: 0.01 }),
  repeat: { type: 'string', enum: COUPON_REPEATS },
  duration: nullable(couponDuration),
  product_ids: nullable({ type: 'array', maxItems: 100, uniqueItems: true, items: id }),
};

export const couponCreateBody = object(couponMembers, ['name', 'type']);
/** Hyperline's update repeats the discount: accepted when it is the coupon's own (the domain checks), never changed. */
const repeatedTerms: Record<string, Schema> = {
  type: couponMembers.type!, discount_amount: couponMembers.discount_amount!, currency: couponMembers.currency!, discount_percent: couponMembers.discount_percent!,
};
export const couponUpdateBody = object({ ...editableMembers, ...repeatedTerms });
export const couponListQuery = { type: 'object', additionalProperties: false, properties: { ...pagingQuery } };

const str = { type: 'string' };
const nstr = { type: ['string', 'null'] };
const nint = { type: ['integer', 'null'] };

export const couponResource: Schema = requireAll({
  type: 'object',
  properties: {
    id: str, name: str, description: nstr, type: { type: 'string', enum: COUPON_TYPES }, discount_amount: nint, currency: nstr,
    discount_percent: { type: ['number', 'null'] }, repeat: { type: 'string', enum: COUPON_REPEATS },
    duration: { anyOf: [couponDuration, { type: 'null' }] }, product_ids: { type: ['array', 'null'], items: str },
    redemption_limit: nint, redemption_count: { type: 'integer' }, expiration_date: { anyOf: [dateTime, { type: 'null' }] },
    created_at: dateTime, updated_at: dateTime, deleted_at: { anyOf: [dateTime, { type: 'null' }] },
  },
});
