/**
 * The pricing engine against the worked examples of docs/pricing.md (each test names its example, E1…E19),
 * every tier rule, rounding edge cases and errors. Properties over random tier sets: pricing-properties.test.ts.
 */
import { computePrice, PricingError, validateTiers } from '../../shared/domain/pricing/compute-price';
import { roundHalfUp, scaledPercentage } from '../../shared/domain/pricing/arithmetic';
import { acceptsPriceType, PRICE_TYPES_BY_PRODUCT_TYPE } from '../../shared/domain/pricing/product-types';
import type { BpsTier, Pack, PricedConfiguration, PriceInput, Tier, TierRule } from '../../shared/domain/pricing/types';

const tier = (from: number, to: number | null, amount: number, unit_count = 1, on_tier_incomplete: TierRule = 'pro_rata'): Tier => ({
  from, to, amount, unit_count, on_tier_incomplete,
});

/** The tier set of E2–E10, with the rule of tier 2 (and 3) chosen by the example. */
const docTiers = (tier2: TierRule = 'pro_rata', tier3: TierRule = 'pro_rata'): Tier[] => [
  tier(0, 10, 1000),
  tier(11, 50, 800, 1, tier2),
  tier(51, null, 500, 1, tier3),
];

const volume = (prices: Tier[]): PricedConfiguration => ({ type: 'volume', prices });
const bulk = (prices: Tier[]): PricedConfiguration => ({ type: 'bulk', prices });
const packaged = (prices: Tier[]): PricedConfiguration => ({ type: 'packaged', prices });
const bps = (prices: BpsTier[]): PricedConfiguration => ({ type: 'bps', prices });
const bundle = (prices: Pack[]): PricedConfiguration => ({ type: 'bundle', prices });
const amountOf = (config: PricedConfiguration, input: PriceInput) => computePrice(config, input).amount;

function pricingError(fn: () => unknown): PricingError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PricingError);
    return error as PricingError;
  }
  throw new Error('expected a PricingError');
}

describe('docs/pricing.md worked examples', () => {
  it('E1 fee: 3 × 4900', () => {
    expect(computePrice({ type: 'fee', prices: [{ amount: 4900 }] }, { quantity: 3 })).toEqual({
      amount: 14700,
      tiers: [{ from: 1, to: null, units: 3, amount: 14700 }],
    });
  });

  it('E2 volume: quantity 30 falls in tier 2, all 30 units at 800', () => {
    expect(computePrice(volume(docTiers()), { quantity: 30 })).toEqual({
      amount: 24000,
      tiers: [{ from: 11, to: 50, units: 30, amount: 24000 }],
    });
  });

  it('E3 volume cliff: 10 units cost 10000, 11 units cost 8800', () => {
    expect(amountOf(volume(docTiers()), { quantity: 10 })).toBe(10000);
    expect(amountOf(volume(docTiers()), { quantity: 11 })).toBe(8800);
  });

  it('E4 volume pay_in_full: an incomplete tier 2 is charged for its `to` (50) units', () => {
    expect(computePrice(volume(docTiers('pay_in_full')), { quantity: 30 })).toEqual({
      amount: 40000,
      tiers: [{ from: 11, to: 50, units: 30, amount: 40000 }],
    });
    expect(amountOf(volume(docTiers('pay_in_full')), { quantity: 50 })).toBe(40000);
  });

  it('E5 volume do_not_charge: nothing until tier 2 is filled', () => {
    expect(computePrice(volume(docTiers('do_not_charge')), { quantity: 30 })).toEqual({
      amount: 0,
      tiers: [{ from: 11, to: 50, units: 30, amount: 0 }],
    });
    expect(amountOf(volume(docTiers('do_not_charge')), { quantity: 50 })).toBe(40000);
  });

  it('E6 volume: an open-ended tier is always priced per unit, whatever its rule', () => {
    expect(amountOf(volume(docTiers('pro_rata', 'pay_in_full')), { quantity: 60 })).toBe(30000);
    expect(amountOf(volume(docTiers('pro_rata', 'do_not_charge')), { quantity: 60 })).toBe(30000);
  });

  it('E7 bulk: quantity 60 = 10 × 1000 + 40 × 800 + 10 × 500', () => {
    expect(computePrice(bulk(docTiers()), { quantity: 60 })).toEqual({
      amount: 47000,
      tiers: [
        { from: 0, to: 10, units: 10, amount: 10000 },
        { from: 11, to: 50, units: 40, amount: 32000 },
        { from: 51, to: null, units: 10, amount: 5000 },
      ],
    });
  });

  it('E8 bulk pro_rata: quantity 30 = 10000 + 20 × 800', () => {
    expect(computePrice(bulk(docTiers()), { quantity: 30 })).toEqual({
      amount: 26000,
      tiers: [
        { from: 0, to: 10, units: 10, amount: 10000 },
        { from: 11, to: 50, units: 20, amount: 16000 },
      ],
    });
  });

  it('E9 bulk pay_in_full: the incomplete tier 2 costs its whole width (40 units)', () => {
    expect(computePrice(bulk(docTiers('pay_in_full')), { quantity: 30 })).toEqual({
      amount: 42000,
      tiers: [
        { from: 0, to: 10, units: 10, amount: 10000 },
        { from: 11, to: 50, units: 20, amount: 32000 },
      ],
    });
  });

  it('E10 bulk do_not_charge: the incomplete tier 2 costs nothing, the filled one its width', () => {
    expect(computePrice(bulk(docTiers('do_not_charge')), { quantity: 30 })).toEqual({
      amount: 10000,
      tiers: [
        { from: 0, to: 10, units: 10, amount: 10000 },
        { from: 11, to: 50, units: 20, amount: 0 },
      ],
    });
    expect(amountOf(bulk(docTiers('do_not_charge')), { quantity: 50 })).toBe(42000);
  });

  it('E11 packaged: 250 calls at 500 per 100 under each rule', () => {
    const one = (rule: TierRule) => packaged([tier(0, null, 500, 100, rule)]);
    expect(amountOf(one('pro_rata'), { quantity: 250 })).toBe(1250);
    expect(amountOf(one('pay_in_full'), { quantity: 250 })).toBe(1500);
    expect(amountOf(one('do_not_charge'), { quantity: 250 })).toBe(1000);
  });

  it('E12 packaged with two tiers: 10 packages at 1000, then 3 started-or-full packages at 800', () => {
    const config = packaged([tier(0, 1000, 1000, 100, 'pay_in_full'), tier(1001, null, 800, 100, 'pay_in_full')]);
    expect(computePrice(config, { quantity: 1250 })).toEqual({
      amount: 12400,
      tiers: [
        { from: 0, to: 1000, units: 1000, amount: 10000 },
        { from: 1001, to: null, units: 250, amount: 2400 },
      ],
    });
  });

  it('E13 half a minor unit per unit rounds half up', () => {
    const config = bulk([tier(0, null, 1, 2)]);
    expect(amountOf(config, { quantity: 1 })).toBe(1);
    expect(amountOf(config, { quantity: 3 })).toBe(2);
    expect(amountOf(config, { quantity: 4 })).toBe(2);
  });

  it('E14 rounding happens once per tier, then the tiers add up', () => {
    const result = computePrice(bulk([tier(0, 1, 1, 2), tier(2, null, 1, 2)]), { quantity: 2 });
    expect(result.tiers.map((t) => t.amount)).toEqual([1, 1]);
    expect(result.amount).toBe(2);
  });

  it('E15 bps: 2.9 % + 30 per transaction; the cap holds the whole unit charge', () => {
    expect(computePrice(bps([{ from: 0, to: null, percentage: 2.9, per_unit_fee: 30 }]), { quantity: 10, amount: 2000 })).toEqual({
      amount: 880,
      tiers: [{ from: 0, to: null, units: 10, amount: 880 }],
    });
    expect(amountOf(bps([{ from: 0, to: null, percentage: 2.9, per_unit_fee: 30, per_unit_cap: 100 }]), { quantity: 1, amount: 5000 })).toBe(100);
  });

  it('E16 bps: 25 bps with a floor of 10 and a cap of 500', () => {
    const config = bps([{ from: 0, to: null, percentage: 0.25, per_unit_floor: 10, per_unit_cap: 500 }]);
    expect(amountOf(config, { quantity: 1, amount: 1000 })).toBe(10);
    expect(amountOf(config, { quantity: 1, amount: 4200 })).toBe(11);
    expect(amountOf(config, { quantity: 1, amount: 1_000_000 })).toBe(500);
  });

  it('E17 bps tiers split the transactions like bulk', () => {
    const config = bps([{ from: 0, to: 100, percentage: 1.5 }, { from: 101, to: null, percentage: 1 }]);
    expect(computePrice(config, { quantity: 150, amount: 10000 })).toEqual({
      amount: 20000,
      tiers: [
        { from: 0, to: 100, units: 100, amount: 15000 },
        { from: 101, to: null, units: 50, amount: 5000 },
      ],
    });
  });

  it('E18 bundle: whole packs, the largest fitting pack unless price_id picks one', () => {
    const packs = bundle([{ id: 'pri_a', amount: 1000, pack_size: 100 }, { id: 'pri_b', amount: 4500, pack_size: 500 }]);
    expect(computePrice(packs, { quantity: 1000 })).toEqual({ amount: 9000, tiers: [{ from: 1, to: null, units: 1000, amount: 9000 }] });
    expect(amountOf(packs, { quantity: 300 })).toBe(3000);
    expect(amountOf(packs, { quantity: 1000, price_id: 'pri_a' })).toBe(10000);
    expect(pricingError(() => computePrice(packs, { quantity: 150 })).code).toBe('credit_pack_mismatch');
  });

  it('E19 errors: above a closed last tier, a negative quantity, a gap', () => {
    const closed = pricingError(() => computePrice(bulk([tier(0, 100, 10)]), { quantity: 120 }));
    expect(closed.code).toBe('quantity_out_of_range');
    expect(closed.message).toBe('The quantity 120 is above the last tier, which ends at 100: add an open-ended last tier (to: null) or lower the quantity.');
    expect(pricingError(() => computePrice(bulk(docTiers()), { quantity: -1 })).code).toBe('invalid_quantity');
    const gap = pricingError(() => computePrice(bulk([tier(0, 10, 1), tier(12, null, 1)]), { quantity: 5 }));
    expect(gap.code).toBe('invalid_price_configuration');
    expect(gap.problems).toEqual([{ path: 'prices.1.from', message: 'must be 11: unit 11 is in no tier (tiers must not leave gaps)' }]);
  });
});

describe('tier rules at the edges', () => {
  const rules: TierRule[] = ['pro_rata', 'pay_in_full', 'do_not_charge'];

  it.each(rules)('%s: a quantity of 0 costs 0 and touches no tier, for every type', (rule) => {
    for (const config of [volume(docTiers(rule)), bulk(docTiers(rule)), packaged([tier(0, null, 500, 100, rule)])]) {
      expect(computePrice(config, { quantity: 0 })).toEqual({ amount: 0, tiers: [] });
    }
    expect(computePrice({ type: 'fee', prices: [{ amount: 100 }] }, { quantity: 0 })).toEqual({ amount: 0, tiers: [] });
    expect(computePrice(bps([{ from: 0, to: null, percentage: 1 }]), { quantity: 0, amount: 100 })).toEqual({ amount: 0, tiers: [] });
    expect(computePrice(bundle([{ amount: 1000, pack_size: 100 }]), { quantity: 0 })).toEqual({ amount: 0, tiers: [] });
  });

  it.each(rules)('%s: a filled tier is charged in full (bulk and volume at `to`)', (rule) => {
    expect(amountOf(bulk(docTiers(rule)), { quantity: 50 })).toBe(42000);
    expect(amountOf(volume(docTiers(rule)), { quantity: 50 })).toBe(40000);
  });

  it.each(rules)('%s: a whole number of packages ignores the rule (packaged)', (rule) => {
    expect(amountOf(packaged([tier(0, null, 500, 100, rule)]), { quantity: 300 })).toBe(1500);
  });

  it('a tier starting at 1 holds the same units as one starting at 0', () => {
    const from1 = [tier(1, 10, 1000), tier(11, null, 800)];
    const from0 = [tier(0, 10, 1000), tier(11, null, 800)];
    for (const q of [1, 9, 10, 11, 25]) {
      expect(amountOf(bulk(from1), { quantity: q })).toBe(amountOf(bulk(from0), { quantity: q }));
      expect(amountOf(volume(from1), { quantity: q })).toBe(amountOf(volume(from0), { quantity: q }));
    }
  });

  it('a single-unit tier: the boundary unit belongs to exactly one tier', () => {
    const config = [tier(0, 1, 100), tier(2, 2, 10), tier(3, null, 1)];
    expect(computePrice(bulk(config), { quantity: 2 }).tiers).toEqual([
      { from: 0, to: 1, units: 1, amount: 100 },
      { from: 2, to: 2, units: 1, amount: 10 },
    ]);
    expect(computePrice(volume(config), { quantity: 2 }).tiers).toEqual([{ from: 2, to: 2, units: 2, amount: 20 }]);
    expect(computePrice(volume(config), { quantity: 3 }).tiers).toEqual([{ from: 3, to: null, units: 3, amount: 3 }]);
  });

  it('bulk pay_in_full on a partly used tier with a fractional unit price rounds its full width once', () => {
    // Tier 2 holds 3 units at 1 per 2: in full 1.5 → 2; pro rata 1 unit 0.5 → 1; not charged 0.
    const config = (rule: TierRule) => bulk([tier(0, 1, 0), tier(2, 4, 1, 2, rule), tier(5, null, 0)]);
    expect(amountOf(config('pay_in_full'), { quantity: 2 })).toBe(2);
    expect(amountOf(config('pro_rata'), { quantity: 2 })).toBe(1);
    expect(amountOf(config('do_not_charge'), { quantity: 2 })).toBe(0);
  });

  it('missing members take their documented defaults (to: null, unit_count: 1, pro_rata)', () => {
    const loose = [{ from: 0, to: 10, amount: 100 }, { from: 11, amount: 50 }] as unknown as Tier[];
    expect(validateTiers(bulk(loose))).toEqual([]);
    expect(amountOf(bulk(loose), { quantity: 12 })).toBe(1100);
  });

  it('members it does not know (id, type) are tolerated', () => {
    const stored = [{ id: 'pri_1', type: 'bulk', ...tier(0, null, 7) }] as unknown as Tier[];
    expect(amountOf(bulk(stored), { quantity: 3 })).toBe(21);
  });
});

describe('rounding', () => {
  it('rounds half up, exactly, with BigInt', () => {
    expect(roundHalfUp(1n, 2n)).toBe(1n);
    expect(roundHalfUp(3n, 2n)).toBe(2n);
    expect(roundHalfUp(5n, 2n)).toBe(3n);
    expect(roundHalfUp(24999n, 10000n)).toBe(2n);
    expect(roundHalfUp(25000n, 10000n)).toBe(3n);
    expect(roundHalfUp(0n, 7n)).toBe(0n);
    expect(roundHalfUp(10n ** 30n + 1n, 2n)).toBe(5n * 10n ** 29n + 1n);
  });

  it('a third of a minor unit per unit: 1 → 0, 2 → 1, 3 → 1 (once per tier, not per unit)', () => {
    const config = bulk([tier(0, null, 1, 3)]);
    expect([1, 2, 3, 4, 5].map((q) => amountOf(config, { quantity: q }))).toEqual([0, 1, 1, 1, 2]);
  });

  it('parses percentages exactly, up to 4 decimals', () => {
    expect(scaledPercentage(2.9)).toBe(29000n);
    expect(scaledPercentage(0.25)).toBe(2500n);
    expect(scaledPercentage(0.0001)).toBe(1n);
    expect(scaledPercentage(33.3333)).toBe(333333n);
    expect(scaledPercentage(100)).toBe(1000000n);
    expect(scaledPercentage(0.1 + 0.2)).toBeUndefined(); // 0.30000000000000004
    expect(scaledPercentage(0.00001)).toBeUndefined();
    expect(scaledPercentage(Number.NaN)).toBeUndefined();
  });

  it('bps: percentages whose float products are inexact still give the exact half-up result', () => {
    // 0.1 × 3 and 1.15 % × 1000 are inexact in floating point (0.30000000000000004, 11.499999999999998).
    expect(amountOf(bps([{ from: 0, to: null, percentage: 1.15 }]), { quantity: 1, amount: 1000 })).toBe(12); // 11.5 → 12
    expect(amountOf(bps([{ from: 0, to: null, percentage: 0.1 }]), { quantity: 3, amount: 3000 })).toBe(9); // 3 per unit
    expect(amountOf(bps([{ from: 0, to: null, percentage: 0.0001 }]), { quantity: 1, amount: 5_000_000 })).toBe(5);
    expect(amountOf(bps([{ from: 0, to: null, percentage: 0.0001 }]), { quantity: 1, amount: 4_999_999 })).toBe(5); // 4.999999 → 5
    expect(amountOf(bps([{ from: 0, to: null, percentage: 0.0001 }]), { quantity: 1, amount: 4_499_999 })).toBe(4);
  });

  it('0-decimal and 3-decimal currencies change nothing: amounts are integers in minor units', () => {
    // 1,500 JPY per seat and 1.250 KWD (1250 fils) per seat, 7 seats, volume.
    expect(amountOf(volume([tier(0, null, 1500)]), { quantity: 7 })).toBe(10500);
    expect(amountOf(volume([tier(0, null, 1250)]), { quantity: 7 })).toBe(8750);
    expect(Number.isInteger(amountOf(bulk([tier(0, null, 1, 7)]), { quantity: 1000 }))).toBe(true);
  });

  it('large quantities stay exact; a result above 2^53 − 1 is refused, never approximated', () => {
    expect(amountOf(bulk([tier(0, null, 999_999_999, 1)]), { quantity: 9_007_199 })).toBe(999_999_999 * 9_007_199);
    const tooLarge = pricingError(() => computePrice(bulk([tier(0, null, 1_000_000_000_000)]), { quantity: 1_000_000_000 }));
    expect(tooLarge.code).toBe('amount_too_large');
  });
});

describe('errors', () => {
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3' as unknown as number])('refuses the quantity %p', (quantity) => {
    const error = pricingError(() => computePrice(bulk(docTiers()), { quantity }));
    expect(error.code).toBe('invalid_quantity');
    expect(error.status).toBe(400);
    expect(error.name).toBe('PricingError');
  });

  it('bps needs a whole, non-negative amount', () => {
    const config = bps([{ from: 0, to: null, percentage: 1 }]);
    expect(pricingError(() => computePrice(config, { quantity: 1 })).message).toMatch(/needs `amount`/);
    expect(pricingError(() => computePrice(config, { quantity: 1, amount: -5 })).code).toBe('invalid_amount');
    expect(pricingError(() => computePrice(config, { quantity: 1, amount: 10.5 })).code).toBe('invalid_amount');
  });

  it('bundle: not a whole number of packs is credit_pack_mismatch (422), with a hint', () => {
    const one = bundle([{ amount: 1000, pack_size: 100 }]);
    const error = pricingError(() => computePrice(one, { quantity: 150 }));
    expect(error.code).toBe('credit_pack_mismatch');
    expect(error.status).toBe(422);
    expect(error.message).toBe('150 credits is not a whole number of packs (packs of 100: 100 or 200 would fit).');
    expect(pricingError(() => computePrice(one, { quantity: 50 })).message).toMatch(/a pack holds 100 credits/);
    expect(pricingError(() => computePrice(one, { quantity: 100, price_id: 'pri_x' })).code).toBe('price_not_found');
  });

  it('an invalid configuration is refused with every problem listed', () => {
    const error = pricingError(() => computePrice(volume([tier(0, 10, 1), tier(5, null, 1, 0)]), { quantity: 1 }));
    expect(error.code).toBe('invalid_price_configuration');
    expect(error.problems.map((p) => p.path)).toEqual(['prices.1.from', 'prices.1.unit_count']);
    expect(error.message).toContain('prices.1.from must be 11');
  });
});

describe('validateTiers', () => {
  const paths = (config: unknown) => validateTiers(config as PricedConfiguration).map((p) => `${p.path}: ${p.message}`);

  it('accepts the documented tier sets', () => {
    expect(validateTiers(volume(docTiers()))).toEqual([]);
    expect(validateTiers(bulk([tier(1, 10, 1), tier(11, null, 1)]))).toEqual([]);
    expect(validateTiers(bulk([tier(0, 100, 1)]))).toEqual([]); // a closed last tier is allowed
    expect(validateTiers(bps([{ from: 0, to: 9, percentage: 0 }, { from: 10, to: null, percentage: 100, per_unit_floor: 5, per_unit_cap: 5 }]))).toEqual([]);
  });

  it('reports gaps, overlaps, a non-final open-ended tier, to < from, a bad first tier', () => {
    expect(paths(bulk([tier(0, 10, 1), tier(15, null, 1)]))).toEqual(['prices.1.from: must be 11: units 11 to 14 are in no tier (tiers must not leave gaps)']);
    expect(paths(bulk([tier(0, 10, 1), tier(10, null, 1)]))).toEqual(['prices.1.from: must be 11: this tier overlaps the previous one, which ends at 10']);
    expect(paths(bulk([tier(0, null, 1), tier(11, null, 1)]))).toEqual(['prices.0.to: only the last tier can be open-ended (to: null)']);
    expect(paths(bulk([tier(0, 10, 1), tier(11, 5, 1), tier(6, null, 1)]))).toEqual([
      'prices.1.to: must be at least 11: a tier covers the units from `from` to `to`, both included',
    ]);
    expect(paths(bulk([tier(2, null, 1)]))).toEqual(['prices.0.from: must be 0 or 1: the first tier starts at the first unit']);
    expect(paths(bulk([tier(0, 0, 1), tier(1, null, 1)]))).toEqual(['prices.0.to: must be at least 1: a tier covers the units from `from` to `to`, both included']);
    // Tiers out of order: each break in the sequence is a gap or an overlap.
    expect(paths(bulk([tier(0, 10, 1), tier(21, 30, 1), tier(11, 20, 1), tier(31, null, 1)]))).toEqual([
      'prices.1.from: must be 11: units 11 to 20 are in no tier (tiers must not leave gaps)',
      'prices.2.from: must be 31: this tier overlaps the previous one, which ends at 30',
      'prices.3.from: must be 21: units 21 to 30 are in no tier (tiers must not leave gaps)',
    ]);
  });

  it('reports unit_count < 1, an unknown rule, negative or fractional amounts', () => {
    expect(paths(packaged([{ ...tier(0, null, -1, 0), on_tier_incomplete: 'round' as TierRule }]))).toEqual([
      'prices.0.amount: must be a whole number of minor units, 0 or more',
      'prices.0.unit_count: must be a whole number of units, 1 or more',
      'prices.0.on_tier_incomplete: must be one of: pro_rata, pay_in_full, do_not_charge',
    ]);
    expect(paths(volume([tier(0, null, 1.5)]))).toEqual(['prices.0.amount: must be a whole number of minor units, 0 or more']);
  });

  it('bps: percentage 0–100 with at most 4 decimals, floor ≤ cap, whole per-unit amounts', () => {
    expect(paths(bps([{ from: 0, to: null, percentage: 100.5 }]))).toEqual(['prices.0.percentage: must be a number from 0 to 100']);
    expect(paths(bps([{ from: 0, to: null, percentage: -1 }]))).toEqual(['prices.0.percentage: must be a number from 0 to 100']);
    expect(paths(bps([{ from: 0, to: null, percentage: 0.12345 }]))).toEqual(['prices.0.percentage: must have at most 4 decimals (0.0001 % is the smallest step)']);
    expect(paths(bps([{ from: 0, to: null, percentage: 1, per_unit_floor: 50, per_unit_cap: 10 }]))).toEqual(['prices.0.per_unit_floor: must not exceed per_unit_cap (10)']);
    expect(paths(bps([{ from: 0, to: null, percentage: 1, per_unit_fee: 0.5, per_unit_cap: null }]))).toEqual(['prices.0.per_unit_fee: must be a whole number of minor units, 0 or more']);
  });

  it('bundle: pack_size ≥ 1; fee: exactly one price; the type and the list', () => {
    expect(paths(bundle([{ amount: 100, pack_size: 0 }]))).toEqual(['prices.0.pack_size: must be a whole number of credits, 1 or more']);
    expect(paths({ type: 'fee', prices: [{ amount: 1 }, { amount: 2 }] })).toEqual(['prices: a fee configuration has exactly one price']);
    expect(paths({ type: 'graduated', prices: [] })).toEqual(['type: must be one of: fee, volume, packaged, bulk, bps, bundle']);
    expect(paths({ type: 'bulk', prices: [] })).toEqual(['prices: must be a list of at least one price']);
    expect(paths({ type: 'bulk', prices: [null] })).toEqual(['prices.0: must be an object']);
    expect(paths(bulk(Array.from({ length: 51 }, (_, i) => tier(i === 0 ? 0 : i + 1, i === 50 ? null : i + 1, 1))))).toEqual(['prices: must have at most 50 tiers']);
  });
});

describe('product types', () => {
  it('maps each product type to the price types it accepts (decisions.md)', () => {
    expect(PRICE_TYPES_BY_PRODUCT_TYPE).toEqual({
      flat_fee: ['fee'],
      seat: ['volume', 'packaged', 'bulk'],
      dynamic: ['volume', 'packaged', 'bulk', 'bps'],
      credit: ['bundle'],
    });
    expect(acceptsPriceType('seat', 'bps')).toBe(false);
    expect(acceptsPriceType('dynamic', 'bps')).toBe(true);
    expect(Object.isFrozen(PRICE_TYPES_BY_PRODUCT_TYPE.seat)).toBe(true);
  });
});
