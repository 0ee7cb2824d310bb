import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { PROMOTION_CODE_PATTERN } from '../../schemas/bounds';
import { couponItemKey, toCoupon, type Coupon, type CouponItem } from '../coupons/coupon';
import { notApplicable } from './errors';
import { codeLookupKey, promotionCodeItemKey, toPromotionCode, type CodeLookupItem, type PromotionCode, type PromotionCodeItem } from './promotion-code';
import { redemptionFailure, type RedemptionContext } from './rules';

export type { RedemptionContext } from './rules';

/** A redemption checked against every rule, with the writes that make it (to run alone or inside a larger transaction). */
export interface PreparedRedemption {
  promotionCode: PromotionCodeItem;
  coupon: CouponItem;
  /** [promotion code increment, coupon increment]: both must be in the same transaction. */
  items: [TransactItem, TransactItem];
}

/**
 * The promotion code's increment as a transaction item: ONE conditional update that adds 1 to
 * `current_redemptions` only while it is below `max_redemptions` (when set), the code is not deleted and it was
 * not edited since its rules were checked (`_version`; redemptions do not bump it, so they never conflict with
 * each other). Under any concurrency the counter never passes the maximum.
 */
export function redemptionItem(ctx: Ctx, code: Pick<PromotionCodeItem, 'id' | '_version'>): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: promotionCodeItemKey(ctx, code.id),
      UpdateExpression: 'ADD current_redemptions :one',
      ConditionExpression:
        '#v = :v AND attribute_type(deleted_at, :null) AND (attribute_type(max_redemptions, :null) OR current_redemptions < max_redemptions)',
      ExpressionAttributeNames: { '#v': '_version' },
      ExpressionAttributeValues: { ':one': 1, ':v': code._version, ':null': 'NULL' },
    },
  };
}

/** The coupon's increment: adds 1 to `redemption_count` while below `redemption_limit`, not deleted, not expired at `at`. */
export function couponRedemptionItem(ctx: Ctx, couponId: string, at: Date): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: couponItemKey(ctx, couponId),
      UpdateExpression: 'ADD redemption_count :one',
      ConditionExpression:
        'attribute_exists(pk) AND attribute_type(deleted_at, :null) AND ' +
        '(attribute_type(redemption_limit, :null) OR redemption_count < redemption_limit) AND ' +
        '(attribute_type(expiration_date, :null) OR expiration_date > :at)',
      ExpressionAttributeValues: { ':one': 1, ':null': 'NULL', ':at': at.toISOString() },
    },
  };
}

/**
 * The opposite increments, for a redemption given back (a discarded draft invoice): the code's and the coupon's
 * counters go down by one, never below zero, in the transaction that discards what redeemed them.
 */
function releaseItem(key: { pk: string; sk: string }, counter: 'current_redemptions' | 'redemption_count'): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD #c :minus',
      ConditionExpression: 'attribute_exists(pk) AND #c > :zero',
      ExpressionAttributeNames: { '#c': counter },
      ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
    },
  };
}

export const promotionCodeReleaseItem = (ctx: Ctx, id: string) => releaseItem(promotionCodeItemKey(ctx, id), 'current_redemptions');
export const couponReleaseItem = (ctx: Ctx, id: string) => releaseItem(couponItemKey(ctx, id), 'redemption_count');

/**
 * Looks the code up (any case), checks every rule (422 `promotion_code_not_applicable` naming the broken rule,
 * also for an unknown code) and returns the two increments. A caller that puts `items` in its own transaction
 * (the invoice that applies the code) retries from here when that transaction fails on one of them.
 */
export async function prepareRedemption(ctx: Ctx, code: string, context: RedemptionContext): Promise<PreparedRedemption> {
  const at = context.at ?? ctx.clock.now();
  // What a customer typed: anything that cannot be a code is simply not found (and never becomes a key).
  const lookup = isPossibleCode(code) ? await getItem<CodeLookupItem>(codeLookupKey(ctx, code), true) : undefined;
  if (!lookup) throw notApplicable(`No promotion code '${code.trim().slice(0, 64)}'.`);
  const [promotionCode, coupon] = await Promise.all([
    getItem<PromotionCodeItem>(promotionCodeItemKey(ctx, lookup.promotion_code_id), true),
    getItem<CouponItem>(couponItemKey(ctx, lookup.coupon_id), true),
  ]);
  if (!promotionCode) throw notApplicable(`No promotion code '${code.trim()}'.`);
  const failure = redemptionFailure(promotionCode, coupon, context, at);
  if (failure) throw notApplicable(failure);
  return { promotionCode, coupon: coupon!, items: [redemptionItem(ctx, promotionCode), couponRedemptionItem(ctx, coupon!.id, at)] };
}

/**
 * Redeems a code now: both increments in one transaction. A lost race (a failed condition, a transaction
 * conflict) reads again and re-checks, so a code at its maximum ends in a 422 that says so. Returns the public
 * representations with the counters as this redemption left them (read + 1; concurrent ones may add more).
 */
export async function redeem(ctx: Ctx, code: string, context: RedemptionContext): Promise<{ promotionCode: PromotionCode; coupon: Coupon }> {
  return retryOnRace(async () => {
    const prepared = await prepareRedemption(ctx, code, context);
    await transactWrite(prepared.items);
    return {
      promotionCode: toPromotionCode({ ...prepared.promotionCode, current_redemptions: prepared.promotionCode.current_redemptions + 1 }),
      coupon: toCoupon({ ...prepared.coupon, redemption_count: prepared.coupon.redemption_count + 1 }),
    };
  }, REDEEM_ATTEMPTS);
}

const CODE = new RegExp(PROMOTION_CODE_PATTERN);
const isPossibleCode = (code: string): boolean => code.trim().length <= 64 && CODE.test(code.trim());

/** Many clients may race for the last redemptions of a popular code: more attempts than an ordinary edit. */
const REDEEM_ATTEMPTS = 12;
