import { tableName } from '../../db/client';
import { dueIndexKeys } from '../../db/keys';
import type { Ctx } from '../../context';
import type { TransactItem } from '../../db/transactions';
import { CREDIT_LOT, lotKey, type CreditLotItem } from './credit';
import { insufficientCredits, tooManyLots } from './errors';

/** A usage expires at most this many due lots itself (the scheduler expires the others). */
export const MAX_INLINE_EXPIRATIONS = 10;
/** A usage draws from at most this many lots: with the rest, one TransactWriteItems stays under 100 items. */
export const MAX_DRAWS = 75;

/** Past its `expires_at` (never, for a lot without one): its credits can no longer be used. */
export const isDue = (lot: Pick<CreditLotItem, 'expires_at'>, now: Date): boolean => lot.expires_at !== null && Date.parse(lot.expires_at) <= now.getTime();

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Earliest-expiring first, never-expiring last; among equal expiries, the oldest top-up first (code-point order). */
export const byExpiry = (a: CreditLotItem, b: CreditLotItem): number =>
  a.expires_at === b.expires_at ? compare(a.id, b.id) : a.expires_at === null ? 1 : b.expires_at === null ? -1 : compare(a.expires_at, b.expires_at);

export interface UsagePlan {
  /** Lots past their expiry with credits left, expired by the usage's own transaction before it draws. */
  expire: CreditLotItem[];
  /** What the usage takes from each lot, earliest-expiring first. */
  draws: Array<{ lot: CreditLotItem; take: number }>;
}

/**
 * Which credits a usage consumes: never those past their expiry; of the others, the earliest-expiring first and
 * the never-expiring last. More than what is usable → 422 `insufficient_credits`. Pure.
 */
export function planUsage(lots: CreditLotItem[], usage: number, now: Date): UsagePlan {
  const live = lots.filter((l) => l.remaining > 0).sort(byExpiry);
  const due = live.filter((l) => isDue(l, now));
  const usable = live.filter((l) => !isDue(l, now));
  const available = usable.reduce((sum, l) => sum + l.remaining, 0);
  if (usage > available) throw insufficientCredits(usage, available, due.reduce((sum, l) => sum + l.remaining, 0));
  const draws: UsagePlan['draws'] = [];
  let left = usage;
  for (const lot of usable) {
    if (left === 0) break;
    const take = Math.min(left, lot.remaining);
    draws.push({ lot, take });
    left -= take;
  }
  if (draws.length > MAX_DRAWS) throw tooManyLots(draws.length, MAX_DRAWS);
  return { expire: due.slice(0, MAX_INLINE_EXPIRATIONS), draws };
}

/** A new lot (one per top-up); one with an expiry sits in the scheduling index until it is used up or expired. */
export function newLot(ctx: Ctx, pk: string, lot: Omit<CreditLotItem, 'pk' | 'sk' | '_type' | 'remaining' | 'updated_at'>): CreditLotItem {
  return {
    ...lotKey(pk, lot.expires_at, lot.id),
    _type: 'credit_lot',
    ...lot,
    remaining: lot.credit_count,
    updated_at: lot.created_at,
    ...(lot.expires_at !== null && dueIndexKeys(ctx, lot.expires_at, CREDIT_LOT, lot.id)),
  };
}

/**
 * Takes `take` credits from a lot, conditioned on the `remaining` read (so two changes can never both spend the
 * same credits). An emptied lot is deleted: it leaves the partition and the scheduling index at once.
 */
export function drawItem(lot: CreditLotItem, take: number, now: string): TransactItem {
  const key = { pk: lot.pk, sk: lot.sk };
  const condition = { ConditionExpression: 'remaining = :read', ExpressionAttributeValues: { ':read': lot.remaining } };
  if (take >= lot.remaining) return { Delete: { TableName: tableName(), Key: key, ...condition } };
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET remaining = :left, updated_at = :now',
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':left': lot.remaining - take, ':now': now },
    },
  };
}

/** An expiration empties the lot: the same conditioned delete. */
export const expireItem = (lot: CreditLotItem, now: string): TransactItem => drawItem(lot, lot.remaining, now);
