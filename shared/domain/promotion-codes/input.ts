import { InvalidRequest, type FieldError } from '../../errors';
import { normalizeDateTime } from '../coupons/input';
import type { PromotionCodeItem, PromotionDurationPeriod } from './promotion-code';

/** The members of `PATCH /v1/promotion-codes/{id}`: restrictions and availability (`null` clears). */
export interface PromotionCodeUpdateInput {
  only_for_first_time_order?: boolean;
  customer_id?: string | null;
  plan_id?: string | null;
  product_id?: string | null;
  expires_at?: string | null;
  max_redemptions?: number | null;
}

/** The members of `POST /v1/promotion-codes` (types already checked by the request schema). */
export interface PromotionCodeCreateInput extends PromotionCodeUpdateInput {
  code: string;
  coupon_id: string;
  duration_count?: number | null;
  duration_period?: PromotionDurationPeriod | null;
}

/**
 * `duration_period` days|weeks|months|years needs a `duration_count` (how many of them); `once` and `null` (the
 * coupon's own repeat applies) take none. Every broken rule is listed (400).
 */
export function durationErrors(input: Pick<PromotionCodeCreateInput, 'duration_count' | 'duration_period'>): FieldError[] {
  const period = input.duration_period ?? null;
  const count = input.duration_count ?? null;
  if (period !== null && period !== 'once' && count === null) {
    return [{ path: 'body.duration_count', message: `is required when duration_period is '${period}'` }];
  }
  if ((period === null || period === 'once') && count !== null) {
    return [{ path: 'body.duration_count', message: `must be absent or null when duration_period is ${period === null ? 'null' : "'once'"}` }];
  }
  return [];
}

export function assertPromotionCodeShape(input: PromotionCodeCreateInput): void {
  const errors = durationErrors(input);
  if (errors.length > 0) throw new InvalidRequest(`Invalid body: ${errors[0]!.path} ${errors[0]!.message}.`, errors);
}

/** A new promotion code's members from a valid create request (pure). */
export function applyPromotionCodeCreate(blank: PromotionCodeItem, input: PromotionCodeCreateInput, clientId: string | null): PromotionCodeItem {
  return {
    ...applyPromotionCodeUpdate(blank, input, blank.created_at),
    code: input.code,
    coupon_id: input.coupon_id,
    client_id: clientId,
    duration_count: input.duration_count ?? null,
    duration_period: input.duration_period ?? null,
  };
}

/** Applies a partial update (pure): omitted members kept, `null` clears. */
export function applyPromotionCodeUpdate(current: PromotionCodeItem, input: PromotionCodeUpdateInput, now: string): PromotionCodeItem {
  const next: PromotionCodeItem = { ...current, updated_at: now };
  if (input.only_for_first_time_order !== undefined) next.only_for_first_time_order = input.only_for_first_time_order;
  if (input.customer_id !== undefined) next.customer_id = input.customer_id;
  if (input.plan_id !== undefined) next.plan_id = input.plan_id;
  if (input.product_id !== undefined) next.product_id = input.product_id;
  if (input.expires_at !== undefined) next.expires_at = normalizeDateTime(input.expires_at) ?? null;
  if (input.max_redemptions !== undefined) next.max_redemptions = input.max_redemptions;
  return next;
}
