import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey, listIndexKeys } from '../../db/keys';

export const PROMOTION_CODE = 'PROMO';
/** The uniqueness (and lookup) item of a code: `WS#<ws>#PROMOCODE#<lower-cased code>`. */
export const CODE_LOOKUP = 'PROMOCODE';

export type PromotionDurationPeriod = 'once' | 'days' | 'weeks' | 'months' | 'years';

/** Members stored as they are returned. */
export interface PromotionCodeMembers {
  id: string;
  /** As given at creation (its case kept); unique per workspace ignoring case. */
  code: string;
  coupon_id: string;
  /** The OAuth client whose token created the code (`client_id` or `azp` claim), else null. */
  client_id: string | null;
  customer_id: string | null;
  plan_id: string | null;
  product_id: string | null;
  expires_at: string | null;
  max_redemptions: number | null;
  /** Redemptions so far: an atomic counter, never above `max_redemptions`. */
  current_redemptions: number;
  duration_count: number | null;
  duration_period: PromotionDurationPeriod | null;
  only_for_first_time_order: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type PromotionCodeItem = StoredItem & PromotionCodeMembers;

/** Maps a code (any case) to its promotion code while that code is not deleted. */
export interface CodeLookupItem {
  pk: string;
  sk: string;
  _type: 'promotion_code_lookup';
  promotion_code_id: string;
  coupon_id: string;
}

export const normalizeCode = (code: string): string => code.trim().toLowerCase();

export const promotionCodeItemKey = (ctx: Ctx, id: string) => entityKey(ctx, PROMOTION_CODE, id);
export const codeLookupKey = (ctx: Ctx, code: string) => entityKey(ctx, CODE_LOOKUP, normalizeCode(code));

/** The fields list filters see (the list index projects only these); `code` lower-cased: its filters ignore case. */
export const promotionCodeListFields = (p: PromotionCodeMembers) => ({
  code: normalizeCode(p.code),
  coupon_id: p.coupon_id,
  customer_id: p.customer_id,
});

export function newPromotionCodeItem(ctx: Ctx, id: string, now: string): PromotionCodeItem {
  return {
    ...promotionCodeItemKey(ctx, id),
    ...listIndexKeys(ctx, PROMOTION_CODE, now, id),
    _type: 'promotion_code',
    _version: 0,
    id,
    code: '',
    coupon_id: '',
    client_id: null,
    customer_id: null,
    plan_id: null,
    product_id: null,
    expires_at: null,
    max_redemptions: null,
    current_redemptions: 0,
    duration_count: null,
    duration_period: null,
    only_for_first_time_order: false,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
}

export function codeLookupItem(ctx: Ctx, item: PromotionCodeMembers): CodeLookupItem {
  return { ...codeLookupKey(ctx, item.code), _type: 'promotion_code_lookup', promotion_code_id: item.id, coupon_id: item.coupon_id };
}

/** The public representation, in the spec's member order (plus `deleted_at`). */
export function toPromotionCode(item: PromotionCodeItem) {
  return {
    id: item.id,
    code: item.code,
    coupon_id: item.coupon_id,
    client_id: item.client_id,
    customer_id: item.customer_id,
    plan_id: item.plan_id,
    product_id: item.product_id,
    created_at: item.created_at,
    updated_at: item.updated_at,
    expires_at: item.expires_at,
    max_redemptions: item.max_redemptions,
    current_redemptions: item.current_redemptions,
    duration_count: item.duration_count,
    duration_period: item.duration_period,
    only_for_first_time_order: item.only_for_first_time_order,
    deleted_at: item.deleted_at,
  };
}

export type PromotionCode = ReturnType<typeof toPromotionCode>;
