import { InvalidRequest, type FieldError } from '../../errors';
import type { CouponDuration, CouponItem, CouponRepeat, CouponType } from './coupon';

/** The members of `POST /v1/coupons` (types already checked by the request schema). */
export interface CouponCreateInput {
  name: string;
  description?: string | null;
  type: CouponType;
  discount_amount?: number | null;
  currency?: string | null;
  discount_percent?: number | null;
  repeat?: CouponRepeat;
  duration?: CouponDuration | null;
  product_ids?: string[] | null;
  redemption_limit?: number | null;
  expiration_date?: string | null;
}

/** The members of `PUT /v1/coupons/{id}`: name and availability only (the discount is fixed once created). */
export interface CouponUpdateInput {
  name?: string;
  description?: string | null;
  redemption_limit?: number | null;
  expiration_date?: string | null;
  /** Hyperline's update body repeats the discount: each given must equal the coupon's (the discount is fixed). */
  type?: CouponItem['type'];
  discount_amount?: number | null;
  currency?: string | null;
  discount_percent?: number | null;
}

/** The repeated discount terms of an update that differ from the coupon's (a 400 names them). */
export function changedTerms(current: CouponItem, input: CouponUpdateInput): string[] {
  const given = { type: input.type, discount_amount: input.discount_amount, currency: input.currency, discount_percent: input.discount_percent };
  return Object.entries(given).filter(([name, value]) => value !== undefined && value !== current[name as keyof typeof given]).map(([name]) => name);
}

/** Date-times are stored in one form (UTC, milliseconds), so they compare as strings in conditions. */
export const normalizeDateTime = (value: string | null | undefined): string | null | undefined =>
  value == null ? value : new Date(value).toISOString();

const hasAtMostTwoDecimals = (value: number): boolean => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9;

/**
 * The cross-member rules of a coupon: an `amount` coupon has `discount_amount` and `currency` and no percent; a
 * `percent` coupon has `discount_percent` (at most two decimals) and neither amount nor currency; `repeat:
 * duration` needs `duration`, which the other repeats do not take. Every broken rule is listed (400).
 */
export function couponShapeErrors(input: CouponCreateInput): FieldError[] {
  const errors: FieldError[] = [];
  const given = (member: keyof CouponCreateInput) => input[member] !== undefined && input[member] !== null;
  const require = (member: keyof CouponCreateInput, why: string) => {
    if (!given(member)) errors.push({ path: `body.${member}`, message: `is required ${why}` });
  };
  const forbid = (member: keyof CouponCreateInput, why: string) => {
    if (given(member)) errors.push({ path: `body.${member}`, message: `must be absent or null ${why}` });
  };
  if (input.type === 'amount') {
    require('discount_amount', "when type is 'amount'");
    require('currency', "when type is 'amount'");
    forbid('discount_percent', "when type is 'amount'");
  } else {
    require('discount_percent', "when type is 'percent'");
    forbid('discount_amount', "when type is 'percent' (a percent coupon has no amount)");
    forbid('currency', "when type is 'percent' (a percent applies in any currency)");
    if (given('discount_percent') && !hasAtMostTwoDecimals(input.discount_percent!)) {
      errors.push({ path: 'body.discount_percent', message: 'must have at most two decimals' });
    }
  }
  if ((input.repeat ?? 'once') === 'duration') require('duration', "when repeat is 'duration'");
  else forbid('duration', "unless repeat is 'duration'");
  return errors;
}

export function assertCouponShape(input: CouponCreateInput): void {
  const errors = couponShapeErrors(input);
  if (errors.length > 0) throw new InvalidRequest(`Invalid body: ${errors[0]!.path} ${errors[0]!.message}.`, errors);
}

/** A new coupon's members from a valid create request (pure). An empty `product_ids` means no restriction. */
export function applyCouponCreate(blank: CouponItem, input: CouponCreateInput): CouponItem {
  return {
    ...blank,
    name: input.name,
    description: input.description ?? null,
    type: input.type,
    discount_amount: input.type === 'amount' ? input.discount_amount! : null,
    currency: input.type === 'amount' ? input.currency! : null,
    discount_percent: input.type === 'percent' ? input.discount_percent! : null,
    repeat: input.repeat ?? 'once',
    duration: input.duration ?? null,
    product_ids: input.product_ids && input.product_ids.length > 0 ? input.product_ids : null,
    redemption_limit: input.redemption_limit ?? null,
    expiration_date: normalizeDateTime(input.expiration_date) ?? null,
  };
}

/** Applies a partial update (pure): omitted members kept, `null` clears. */
export function applyCouponUpdate(current: CouponItem, input: CouponUpdateInput, now: string): CouponItem {
  const next: CouponItem = { ...current, updated_at: now };
  if (input.name !== undefined) next.name = input.name;
  if (input.description !== undefined) next.description = input.description;
  if (input.redemption_limit !== undefined) next.redemption_limit = input.redemption_limit;
  if (input.expiration_date !== undefined) next.expiration_date = normalizeDateTime(input.expiration_date) ?? null;
  return next;
}
