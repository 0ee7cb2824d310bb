import { PERCENT_DENOMINATOR, roundHalfUp } from '../pricing/arithmetic';
import { scaledRate } from '../../money/tax-rate';
import type { AppliedCoupon, CouponTerms } from './invoice';

/** A line before discount and tax: what the coupons are applied to. */
export interface GrossLine {
  id: string;
  product_id: string | null;
  /** units × unit price (or the pricing engine's amount), minor units. */
  gross: number;
}

export interface Discounts {
  /** Discount of each line (by line id), at most its gross amount. */
  byLine: Map<string, number>;
  applied: AppliedCoupon[];
}

/**
 * Coupons apply in order, each to what the earlier ones left, on the lines of its products (all lines when it names
 * none). A percent coupon takes round half-up(remaining × percent) of each line. An amount coupon takes at most its
 * amount, spread over its lines in proportion to what they have left, by largest remainder: the parts are whole
 * minor units and add up exactly to the coupon's discount. Pure and exact (BigInt).
 */
export function applyCoupons(lines: readonly GrossLine[], coupons: readonly CouponTerms[]): Discounts {
  const remaining = new Map(lines.map((l) => [l.id, BigInt(l.gross)]));
  const byLine = new Map(lines.map((l) => [l.id, 0n]));
  const applied: AppliedCoupon[] = [];
  for (const coupon of coupons) {
    const targets = lines.filter((l) => !coupon.product_ids || (l.product_id !== null && coupon.product_ids.includes(l.product_id)));
    const parts = coupon.type === 'percent' ? percentParts(targets, remaining, coupon.discount_percent ?? 0) : amountParts(targets, remaining, coupon.discount_amount ?? 0);
    let total = 0n;
    for (const [id, part] of parts) {
      remaining.set(id, remaining.get(id)! - part);
      byLine.set(id, byLine.get(id)! + part);
      total += part;
    }
    applied.push({
      id: coupon.id, name: coupon.name, discount_amount: Number(total), discount_percent: coupon.discount_percent, line_item_ids: targets.map((l) => l.id),
    });
  }
  return { byLine: new Map([...byLine].map(([id, d]) => [id, Number(d)])), applied };
}

function percentParts(targets: readonly GrossLine[], remaining: Map<string, bigint>, percent: number): Map<string, bigint> {
  const rate = scaledRate(percent);
  return new Map(targets.map((l) => [l.id, roundHalfUp(remaining.get(l.id)! * rate, PERCENT_DENOMINATOR)]));
}

function amountParts(targets: readonly GrossLine[], remaining: Map<string, bigint>, amount: number): Map<string, bigint> {
  const bases = targets.map((l) => remaining.get(l.id)!);
  const available = bases.reduce((a, b) => a + b, 0n);
  const discount = BigInt(amount) < available ? BigInt(amount) : available;
  if (discount === 0n) return new Map(targets.map((l) => [l.id, 0n]));
  const floors = bases.map((base) => (discount * base) / available);
  let left = discount - floors.reduce((a, b) => a + b, 0n);
  // Largest remainder first; ties go to the earlier line, so the result is deterministic.
  const order = bases.map((base, i) => ({ i, remainder: (discount * base) % available })).sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left === 0n) break;
    floors[i]! += 1n;
    left -= 1n;
  }
  return new Map(targets.map((l, i) => [l.id, floors[i]!]));
}
