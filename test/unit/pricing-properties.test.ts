/**
 * Properties of the pricing engine over random valid tier sets (docs/pricing.md): integer, non-negative results
 * that are the sum of their tiers; graduated types (bulk, packaged, bps) monotonic in the quantity, their tiers
 * contiguous and their units adding up to the quantity (no unit counted twice or skipped); volume charging exactly
 * one tier, monotonic within a tier and overall when unit prices never decrease (and not in general: the cliff).
 */
import fc from 'fast-check';
import { computePrice, PricingError, validateTiers } from '../../shared/domain/pricing/compute-price';
import type { BpsTier, Pack, PricedConfiguration, PriceResult, Tier, TierRule } from '../../shared/domain/pricing/types';

const RUNS = { numRuns: 300 };
const RULES: TierRule[] = ['pro_rata', 'pay_in_full', 'do_not_charge'];

interface Shape {
  first: 0 | 1;
  widths: number[]; // widths of the closed tiers; the last tier is open-ended unless `closed`
  closed: boolean;
}

/** Contiguous ascending bounds: first from 0 or 1, each next from = previous to + 1. */
const shapeArb: fc.Arbitrary<Shape> = fc.record({
  first: fc.constantFrom(0 as const, 1 as const),
  widths: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 0, maxLength: 6 }),
  closed: fc.boolean(),
}).filter((s) => !s.closed || s.widths.length > 0);

function bounds(shape: Shape): { from: number; to: number | null }[] {
  const result: { from: number; to: number | null }[] = [];
  let next = 1;
  shape.widths.forEach((w, i) => {
    result.push({ from: i === 0 ? shape.first : next, to: next + w - 1 });
    next += w;
  });
  if (!shape.closed) result.push({ from: result.length === 0 ? shape.first : next, to: null });
  return result;
}

const lastUnit = (tiers: { to: number | null }[]) => tiers[tiers.length - 1]!.to;

const tierPriceArb = fc.record({
  amount: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 1_000_000 })),
  unit_count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 1000 })),
  on_tier_incomplete: fc.constantFrom(...RULES),
});

const tiersArb = (rules: TierRule[] = RULES): fc.Arbitrary<Tier[]> =>
  shapeArb.chain((shape) => {
    const b = bounds(shape);
    return fc.array(tierPriceArb, { minLength: b.length, maxLength: b.length }).map((prices) =>
      b.map((bound, i) => ({ ...bound, ...prices[i]!, on_tier_incomplete: rules.includes(prices[i]!.on_tier_incomplete) ? prices[i]!.on_tier_incomplete : rules[0]! })),
    );
  });

const percentageArb = fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000); // 0–100, 4 decimals
const bpsTiersArb: fc.Arbitrary<BpsTier[]> = shapeArb.chain((shape) => {
  const b = bounds(shape);
  const one = fc
    .record({
      percentage: percentageArb,
      per_unit_fee: fc.option(fc.integer({ min: 0, max: 500 })),
      floor: fc.option(fc.integer({ min: 0, max: 1000 })),
      span: fc.option(fc.integer({ min: 0, max: 5000 })),
    })
    .map(({ percentage, per_unit_fee, floor, span }) => ({
      percentage,
      per_unit_fee,
      per_unit_floor: floor,
      per_unit_cap: span === null ? null : (floor ?? 0) + span,
    }));
  return fc.array(one, { minLength: b.length, maxLength: b.length }).map((prices) => b.map((bound, i) => ({ ...bound, ...prices[i]! })));
});

const graduatedTypes = ['bulk', 'packaged'] as const;

function expectWellFormed(result: PriceResult): void {
  expect(Number.isSafeInteger(result.amount)).toBe(true);
  expect(result.amount).toBeGreaterThanOrEqual(0);
  for (const t of result.tiers) {
    expect(Number.isSafeInteger(t.amount)).toBe(true);
    expect(t.amount).toBeGreaterThanOrEqual(0);
    expect(Number.isSafeInteger(t.units)).toBe(true);
    expect(t.units).toBeGreaterThan(0);
  }
  expect(result.tiers.reduce((sum, t) => sum + t.amount, 0)).toBe(result.amount);
}

describe('generated tier sets', () => {
  it('are valid: validateTiers finds no problem', () => {
    fc.assert(fc.property(tiersArb(), bpsTiersArb, (tiers, bpsTiers) => {
      for (const type of ['volume', 'packaged', 'bulk'] as const) expect(validateTiers({ type, prices: tiers })).toEqual([]);
      expect(validateTiers({ type: 'bps', prices: bpsTiers })).toEqual([]);
    }), RUNS);
  });

  it('moving one boundary by a unit is always reported (gap or overlap, or a bad first tier)', () => {
    fc.assert(fc.property(tiersArb().filter((t) => t.length >= 2), fc.nat(), fc.constantFrom(-1, 1), (tiers, pick, delta) => {
      const i = 1 + (pick % (tiers.length - 1));
      const moved = tiers.map((t, j) => (j === i ? { ...t, from: t.from + delta } : t));
      const problems = validateTiers({ type: 'bulk', prices: moved });
      expect(problems.some((p) => p.path === `prices.${i}.from` || p.path === `prices.${i}.to`)).toBe(true);
    }), RUNS);
  });
});

describe('every tiered type', () => {
  it('returns a non-negative integer that is the sum of its tiers, and never mutates its input', () => {
    fc.assert(fc.property(tiersArb(), fc.constantFrom('volume', 'packaged', 'bulk') as fc.Arbitrary<'volume' | 'packaged' | 'bulk'>, fc.nat(), (tiers, type, seed) => {
      const q = seed % ((lastUnit(tiers) ?? 500) + 1);
      const config = { type, prices: tiers } as PricedConfiguration;
      const before = JSON.stringify(config);
      const result = computePrice(config, { quantity: q });
      expectWellFormed(result);
      expect(JSON.stringify(config)).toBe(before);
      expect(computePrice(config, { quantity: q })).toEqual(result); // deterministic
    }), RUNS);
  });

  it('refuses a quantity above a closed last tier instead of pricing part of it', () => {
    fc.assert(fc.property(tiersArb().filter((t) => lastUnit(t) !== null), fc.constantFrom('volume', 'packaged', 'bulk') as fc.Arbitrary<'volume' | 'packaged' | 'bulk'>, fc.integer({ min: 1, max: 100 }), (tiers, type, over) => {
      const q = lastUnit(tiers)! + over;
      expect(() => computePrice({ type, prices: tiers }, { quantity: q })).toThrow(PricingError);
    }), RUNS);
  });
});

describe.each(graduatedTypes)('%s (graduated)', (type) => {
  it('is monotonic: more units never cost less, under every rule', () => {
    fc.assert(fc.property(tiersArb(), fc.nat(), fc.nat(), (tiers, a, b) => {
      const range = (lastUnit(tiers) ?? 400) + 1;
      const [q1, q2] = [a % range, b % range].sort((x, y) => x - y) as [number, number];
      const config = { type, prices: tiers };
      expect(computePrice(config, { quantity: q1 }).amount).toBeLessThanOrEqual(computePrice(config, { quantity: q2 }).amount);
    }), RUNS);
  });

  it('assigns every unit to exactly one tier: units add up to the quantity, tiers are contiguous from the first', () => {
    fc.assert(fc.property(tiersArb(), fc.nat(), (tiers, seed) => {
      const q = seed % ((lastUnit(tiers) ?? 400) + 1);
      const { tiers: charged } = computePrice({ type, prices: tiers }, { quantity: q });
      expect(charged.reduce((sum, t) => sum + t.units, 0)).toBe(q);
      charged.forEach((t, i) => {
        expect({ from: t.from, to: t.to }).toEqual({ from: tiers[i]!.from, to: tiers[i]!.to }); // the i-th tier, none skipped
        const width = t.to === null ? null : t.to - Math.max(t.from, 1) + 1;
        if (i < charged.length - 1) expect(t.units).toBe(width); // every tier before the last is full
        else if (width !== null) expect(t.units).toBeLessThanOrEqual(width);
      });
      // The last charged tier is the one that contains the quantity.
      if (q > 0) {
        const last = charged[charged.length - 1]!;
        expect(q >= Math.max(last.from, 1) && (last.to === null || q <= last.to)).toBe(true);
      } else {
        expect(charged).toEqual([]);
      }
    }), RUNS);
  });

  it('orders the rules: do_not_charge ≤ pro_rata ≤ pay_in_full', () => {
    fc.assert(fc.property(tiersArb(), fc.nat(), (tiers, seed) => {
      const q = seed % ((lastUnit(tiers) ?? 400) + 1);
      const withRule = (rule: TierRule) => computePrice({ type, prices: tiers.map((t) => ({ ...t, on_tier_incomplete: rule })) }, { quantity: q }).amount;
      expect(withRule('do_not_charge')).toBeLessThanOrEqual(withRule('pro_rata'));
      expect(withRule('pro_rata')).toBeLessThanOrEqual(withRule('pay_in_full'));
    }), RUNS);
  });

  it('rounds once per tier: each tier is within half a minor unit of its exact pro-rata value', () => {
    fc.assert(fc.property(tiersArb(['pro_rata']), fc.nat(), (tiers, seed) => {
      const q = seed % ((lastUnit(tiers) ?? 400) + 1);
      computePrice({ type, prices: tiers }, { quantity: q }).tiers.forEach((t, i) => {
        const { amount, unit_count } = tiers[i]!;
        // Exact: t.amount = round_half_up(units × amount / unit_count), i.e. 2·u·a ∈ [(2·t − 1)·uc, (2·t + 1)·uc).
        const twice = 2n * BigInt(t.units) * BigInt(amount);
        expect(twice >= (2n * BigInt(t.amount) - 1n) * BigInt(unit_count)).toBe(true);
        expect(twice < (2n * BigInt(t.amount) + 1n) * BigInt(unit_count)).toBe(true);
      });
    }), RUNS);
  });
});

describe('packaged vs bulk', () => {
  it('with pro_rata everywhere they give the same amounts', () => {
    fc.assert(fc.property(tiersArb(['pro_rata']), fc.nat(), (tiers, seed) => {
      const q = seed % ((lastUnit(tiers) ?? 400) + 1);
      expect(computePrice({ type: 'packaged', prices: tiers }, { quantity: q })).toEqual(computePrice({ type: 'bulk', prices: tiers }, { quantity: q }));
    }), RUNS);
  });

  it('packaged pay_in_full charges whole packages: ceil(units / unit_count) × amount per tier', () => {
    fc.assert(fc.property(tiersArb(['pay_in_full']), fc.nat(), (tiers, seed) => {
      const q = seed % ((lastUnit(tiers) ?? 400) + 1);
      computePrice({ type: 'packaged', prices: tiers }, { quantity: q }).tiers.forEach((t, i) => {
        expect(t.amount).toBe(Math.ceil(t.units / tiers[i]!.unit_count) * tiers[i]!.amount);
      });
    }), RUNS);
  });
});

describe('volume', () => {
  it('charges exactly one tier: the one containing the quantity, for all its units', () => {
    fc.assert(fc.property(tiersArb(), fc.nat(), (tiers, seed) => {
      const q = 1 + (seed % (lastUnit(tiers) ?? 400));
      const { tiers: charged, amount } = computePrice({ type: 'volume', prices: tiers }, { quantity: q });
      expect(charged).toHaveLength(1);
      const [t] = charged as [PriceResult['tiers'][number]];
      expect(t.units).toBe(q);
      expect(t.amount).toBe(amount);
      expect(q >= Math.max(t.from, 1) && (t.to === null || q <= t.to)).toBe(true);
      expect(tiers.some((c) => c.from === t.from && c.to === t.to)).toBe(true);
    }), RUNS);
  });

  it('is monotonic within a tier (not across tiers: see the cliff, E3)', () => {
    fc.assert(fc.property(tiersArb(), fc.nat(), fc.nat(), fc.nat(), (tiers, pick, a, b) => {
      const t = tiers[pick % tiers.length]!;
      const lo = Math.max(t.from, 1);
      const hi = t.to ?? lo + 300;
      const [q1, q2] = [lo + (a % (hi - lo + 1)), lo + (b % (hi - lo + 1))].sort((x, y) => x - y) as [number, number];
      const config = { type: 'volume' as const, prices: tiers };
      expect(computePrice(config, { quantity: q1 }).amount).toBeLessThanOrEqual(computePrice(config, { quantity: q2 }).amount);
    }), RUNS);
  });

  it('is monotonic overall when unit prices never decrease from tier to tier (pro_rata)', () => {
    const rising = tiersArb(['pro_rata']).map((tiers) => {
      // Re-price so that amount / unit_count never decreases: unit_count 1, amounts sorted.
      const amounts = tiers.map((t) => t.amount).sort((x, y) => x - y);
      return tiers.map((t, i) => ({ ...t, unit_count: 1, amount: amounts[i]! }));
    });
    fc.assert(fc.property(rising, fc.nat(), fc.nat(), (tiers, a, b) => {
      const range = (lastUnit(tiers) ?? 400) + 1;
      const [q1, q2] = [a % range, b % range].sort((x, y) => x - y) as [number, number];
      const config = { type: 'volume' as const, prices: tiers };
      expect(computePrice(config, { quantity: q1 }).amount).toBeLessThanOrEqual(computePrice(config, { quantity: q2 }).amount);
    }), RUNS);
  });

  it('with a single open-ended tier equals bulk', () => {
    fc.assert(fc.property(tierPriceArb, fc.constantFrom(0, 1), fc.integer({ min: 0, max: 100_000 }), (price, from, q) => {
      const prices = [{ from, to: null, ...price }];
      expect(computePrice({ type: 'volume', prices }, { quantity: q }).amount).toBe(computePrice({ type: 'bulk', prices }, { quantity: q }).amount);
    }), RUNS);
  });
});

describe('bps', () => {
  it('is a non-negative integer sum of tiers, monotonic in the quantity, units adding up to the quantity', () => {
    fc.assert(fc.property(bpsTiersArb, fc.integer({ min: 0, max: 10_000_000 }), fc.nat(), fc.nat(), (tiers, unitAmount, a, b) => {
      const range = (lastUnit(tiers) ?? 400) + 1;
      const [q1, q2] = [a % range, b % range].sort((x, y) => x - y) as [number, number];
      const config = { type: 'bps' as const, prices: tiers };
      const r1 = computePrice(config, { quantity: q1, amount: unitAmount });
      const r2 = computePrice(config, { quantity: q2, amount: unitAmount });
      expectWellFormed(r1);
      expectWellFormed(r2);
      expect(r1.amount).toBeLessThanOrEqual(r2.amount);
      expect(r2.tiers.reduce((s, t) => s + t.units, 0)).toBe(q2);
    }), RUNS);
  });

  it('charges each unit within [floor, cap], and never less for a larger transaction amount', () => {
    fc.assert(fc.property(bpsTiersArb, fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000_000 }), fc.nat(), (tiers, x, y, seed) => {
      const q = 1 + (seed % (lastUnit(tiers) ?? 400));
      const [small, large] = [x, y].sort((m, n) => m - n) as [number, number];
      const config = { type: 'bps' as const, prices: tiers };
      const low = computePrice(config, { quantity: q, amount: small });
      const high = computePrice(config, { quantity: q, amount: large });
      expect(low.amount).toBeLessThanOrEqual(high.amount);
      low.tiers.forEach((t, i) => {
        const { per_unit_floor: floor, per_unit_cap: cap } = tiers[i]!;
        expect(t.amount % t.units).toBe(0); // units × one integer unit charge
        const perUnit = t.amount / t.units;
        if (floor !== null && floor !== undefined) expect(perUnit).toBeGreaterThanOrEqual(floor);
        if (cap !== null && cap !== undefined) expect(perUnit).toBeLessThanOrEqual(cap);
      });
    }), RUNS);
  });

  it('matches the exact half-up share of each unit (no cap, floor or fee)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 1, max: 1000 }), (p4, unitAmount, q) => {
      const share = (2n * BigInt(unitAmount) * BigInt(p4) + 1_000_000n) / 2_000_000n; // round_half_up(a × p4 / 10⁶)
      const result = computePrice({ type: 'bps', prices: [{ from: 0, to: null, percentage: p4 / 10_000 }] }, { quantity: q, amount: unitAmount });
      expect(BigInt(result.amount)).toBe(share * BigInt(q));
    }), RUNS);
  });
});

describe('bundle', () => {
  const packsArb: fc.Arbitrary<Pack[]> = fc.array(
    fc.record({ amount: fc.integer({ min: 0, max: 1_000_000 }), pack_size: fc.integer({ min: 1, max: 1000 }) }),
    { minLength: 1, maxLength: 4 },
  );

  it('k whole packs of the chosen size cost k × its amount; anything else is credit_pack_mismatch', () => {
    fc.assert(fc.property(packsArb, fc.integer({ min: 0, max: 1000 }), fc.nat(), (packs, k, pick) => {
      const chosen = packs[pick % packs.length]!;
      const withIds = packs.map((p, i) => ({ ...p, id: `pri_${i}` }));
      const id = `pri_${pick % packs.length}`;
      const q = k * chosen.pack_size;
      const result = computePrice({ type: 'bundle', prices: withIds }, { quantity: q, price_id: id });
      expect(result.amount).toBe(k * chosen.amount);
      expectWellFormed(result);
      if (chosen.pack_size > 1) {
        let code: string | undefined;
        try {
          computePrice({ type: 'bundle', prices: withIds }, { quantity: q + 1, price_id: id });
        } catch (error) {
          code = (error as PricingError).code;
        }
        expect(code).toBe('credit_pack_mismatch');
      }
    }), RUNS);
  });

  it('without price_id uses the largest pack whose size divides the quantity', () => {
    fc.assert(fc.property(packsArb, fc.integer({ min: 1, max: 100_000 }), (packs, q) => {
      const fitting = packs.filter((p) => q % p.pack_size === 0);
      if (fitting.length === 0) {
        expect(() => computePrice({ type: 'bundle', prices: packs }, { quantity: q })).toThrow(PricingError);
        return;
      }
      const size = Math.max(...fitting.map((p) => p.pack_size));
      const pack = fitting.find((p) => p.pack_size === size)!;
      expect(computePrice({ type: 'bundle', prices: packs }, { quantity: q }).amount).toBe((q / size) * pack.amount);
    }), RUNS);
  });
});
