/**
 * Bps over a period's events: each event is one unit whose own amount the percentage applies to. `computePrice`
 * prices N units of ONE amount; a metered period holds N events of N different amounts, and the per-unit cap and
 * floor hold per event, so no sum of the amounts can stand in for them.
 */
import { bpsUnitCharge, computePrice, PricingError } from './compute-price';
import type { BpsTier, PriceResult, TierCharge } from './types';

/**
 * The price of `amounts` (each event's amount in minor units, ≥ 0, in the order the events happened): event n (from
 * 1) is priced by the tier that contains n, like bulk, at clamp(round(amount × percentage %) + per_unit_fee, floor,
 * cap); a tier's amount is the sum of its events' charges, the total the sum of the tiers. Pure, integer only.
 */
export function priceBpsEvents(tiers: BpsTier[], amounts: readonly number[]): PriceResult {
  // Validates the tiers and the count (an open-ended last tier or enough room) the way computePrice does.
  computePrice({ type: 'bps', prices: tiers }, { quantity: amounts.length, amount: 0 });
  const charges: TierCharge[] = [];
  let total = 0n;
  let next = 0;
  for (const t of tiers) {
    if (next >= amounts.length) break;
    const first = Math.max(t.from, 1);
    const last = t.to ?? Number.POSITIVE_INFINITY;
    const units = Math.min(last, amounts.length) - first + 1;
    let amount = 0n;
    for (const value of amounts.slice(next, next + units)) {
      if (!Number.isSafeInteger(value) || value < 0) throw new PricingError('invalid_amount', `Each event's amount must be a whole number of minor units, 0 or more (got ${String(value)}).`);
      amount += bpsUnitCharge(t, BigInt(value));
    }
    next += units;
    total += amount;
    charges.push({ from: t.from, to: t.to ?? null, units, amount: safe(amount) });
  }
  return { amount: safe(total), tiers: charges };
}

function safe(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new PricingError('amount_too_large', `The computed amount (${amount}) is too large to be represented exactly.`);
  return Number(amount);
}
