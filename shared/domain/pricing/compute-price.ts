/**
 * The pricing engine: a pure function from a price configuration and a quantity (and, for bps, the amount of each
 * unit) to an integer amount in minor units and the tiers that made it. Every model, tier rule, the boundary
 * convention and the rounding rule are explained with worked examples in docs/pricing.md.
 *
 * Rounding: values are exact fractions of BigInts, rounded half up to the minor unit ONCE per tier (per unit for
 * bps, whose cap and floor hold per unit); the total is the sum of the rounded tiers.
 */
import { ceilDiv, isWhole, PERCENT_DENOMINATOR, roundHalfUp, scaledPercentage } from './arithmetic';
import { PricingError } from './errors';
import type { BpsTier, FeePrice, Pack, PricedConfiguration, PriceInput, PriceResult, Tier, TierCharge, TierRule } from './types';
import { validateTiers } from './validate-tiers';

export { validateTiers } from './validate-tiers';
export { PricingError } from './errors';

export function computePrice(config: PricedConfiguration, input: PriceInput): PriceResult {
  const quantity = input?.quantity;
  if (!isWhole(quantity)) throw new PricingError('invalid_quantity', `The quantity must be a whole number, 0 or more (got ${String(quantity)}).`);
  const problems = validateTiers(config);
  if (problems.length > 0) {
    throw new PricingError('invalid_price_configuration', `The ${String(config?.type)} prices cannot be priced: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}.`, problems);
  }
  switch (config.type) {
    case 'fee':
      return fee(config.prices[0]!, quantity);
    case 'volume':
      return volume(config.prices.map(tier), quantity);
    case 'bulk':
      return graduated(config.prices.map(tier), quantity, bulkTierAmount);
    case 'packaged':
      return graduated(config.prices.map(tier), quantity, packagedTierAmount);
    case 'bps':
      return bps(config.prices, quantity, input.amount);
    case 'bundle':
      return bundle(config.prices, quantity, input.price_id);
  }
}

/** A tier with the documented defaults filled in (`to: null`, `unit_count: 1`, `on_tier_incomplete: pro_rata`). */
interface Band {
  from: number;
  to: number | null;
  /** First and last unit numbers covered (`last` = null: open-ended). `first` is 1 for a first tier "from 0". */
  first: bigint;
  last: bigint | null;
  amount: bigint;
  unitCount: bigint;
  rule: TierRule;
}

function tier(t: Tier | BpsTier): Band {
  const to = t.to ?? null;
  const priced = t as Partial<Tier>;
  return {
    from: t.from,
    to,
    first: BigInt(Math.max(t.from, 1)),
    last: to === null ? null : BigInt(to),
    amount: BigInt(priced.amount ?? 0),
    unitCount: BigInt(priced.unit_count ?? 1),
    rule: priced.on_tier_incomplete ?? 'pro_rata',
  };
}

const width = (b: Band): bigint | null => (b.last === null ? null : b.last - b.first + 1n);

/** `units` at `amount` per `unit_count`, rounded half up. */
const perUnit = (b: Band, units: bigint): bigint => roundHalfUp(units * b.amount, b.unitCount);

function fee(price: FeePrice, quantity: number): PriceResult {
  const amount = BigInt(price.amount) * BigInt(quantity);
  return result(quantity === 0 ? [] : [{ from: 1, to: null, units: quantity, amount }]);
}

/**
 * Volume: the tier that contains the quantity prices ALL units. The tier is incomplete while the quantity is below
 * its `to`: pro_rata charges the units, pay_in_full charges `to` units, do_not_charge charges nothing.
 */
function volume(bands: Band[], quantity: number): PriceResult {
  if (quantity === 0) return result([]);
  const q = BigInt(quantity);
  const band = bands.find((b) => q >= b.first && (b.last === null || q <= b.last));
  if (!band) throw outOfRange(bands, quantity);
  const incomplete = band.last !== null && q < band.last;
  const amount = !incomplete || band.rule === 'pro_rata' ? perUnit(band, q) : band.rule === 'pay_in_full' ? perUnit(band, band.last!) : 0n;
  return result([{ from: band.from, to: band.to, units: quantity, amount }]);
}

type TierAmount = (band: Band, units: bigint) => bigint;

/**
 * Bulk (graduated), packaged and bps: unit n is priced by the tier that contains n; each tier's share is priced
 * by `price` and rounded there. Only tiers that receive units are returned, so they are contiguous from the first.
 */
function graduated(bands: Band[], quantity: number, price: TierAmount): PriceResult {
  const q = BigInt(quantity);
  const lastBand = bands[bands.length - 1]!;
  if (lastBand.last !== null && q > lastBand.last) throw outOfRange(bands, quantity);
  const charges: Charge[] = [];
  for (const band of bands) {
    if (q < band.first) break;
    const end = band.last === null || q < band.last ? q : band.last;
    const units = end - band.first + 1n;
    charges.push({ from: band.from, to: band.to, units: Number(units), amount: price(band, units) });
  }
  return result(charges);
}

/**
 * Bulk: a complete tier costs its width at its rate; the tier where the quantity ends (incomplete, unless
 * open-ended) follows its rule: pro_rata its units, pay_in_full its whole width, do_not_charge nothing.
 */
const bulkTierAmount: TierAmount = (band, units) => {
  const full = width(band);
  if (full === null || units === full || band.rule === 'pro_rata') return perUnit(band, units);
  return band.rule === 'pay_in_full' ? perUnit(band, full) : 0n;
};

/**
 * Packaged: the tier's units are counted in packages of `unit_count` at `amount` each; a started package follows
 * the rule: pro_rata its share, pay_in_full a whole package, do_not_charge nothing.
 */
const packagedTierAmount: TierAmount = (band, units) => {
  if (units % band.unitCount === 0n || band.rule === 'pro_rata') return perUnit(band, units);
  const packages = band.rule === 'pay_in_full' ? ceilDiv(units, band.unitCount) : units / band.unitCount;
  return packages * band.amount;
};

/** Bps: each unit costs clamp(round(amount × percentage %) + per_unit_fee, floor, cap); the tier: units × that. */
function bps(tiers: BpsTier[], quantity: number, unitAmount: number | undefined): PriceResult {
  if (unitAmount === undefined || unitAmount === null) {
    throw new PricingError('invalid_amount', 'A bps price needs `amount`: the amount of each unit (transaction), in minor units.');
  }
  if (!isWhole(unitAmount)) throw new PricingError('invalid_amount', `The amount must be a whole number of minor units, 0 or more (got ${String(unitAmount)}).`);
  const bands = tiers.map(tier);
  const unitCharges = new Map(bands.map((band, i) => [band, bpsUnitCharge(tiers[i]!, BigInt(unitAmount))]));
  return graduated(bands, quantity, (band, units) => units * unitCharges.get(band)!);
}

/** What one unit of `unitAmount` costs in a bps tier, in minor units (exported for tests and docs). */
export function bpsUnitCharge(t: BpsTier, unitAmount: bigint): bigint {
  const share = roundHalfUp(unitAmount * scaledPercentage(t.percentage)!, PERCENT_DENOMINATOR);
  let charge = share + BigInt(t.per_unit_fee ?? 0);
  if (t.per_unit_floor !== undefined && t.per_unit_floor !== null && charge < BigInt(t.per_unit_floor)) charge = BigInt(t.per_unit_floor);
  if (t.per_unit_cap !== undefined && t.per_unit_cap !== null && charge > BigInt(t.per_unit_cap)) charge = BigInt(t.per_unit_cap);
  return charge;
}

/**
 * Bundle: credits are bought in whole packs. `price_id` picks the pack; without it, the only pack, or else the
 * largest pack whose size divides the quantity (the first listed among equal sizes).
 */
function bundle(packs: Pack[], quantity: number, priceId: string | undefined): PriceResult {
  let candidates = packs;
  if (priceId !== undefined) {
    candidates = packs.filter((p) => (p as Pack & { id?: unknown }).id === priceId);
    if (candidates.length === 0) throw new PricingError('price_not_found', `This price configuration has no pack with id '${priceId}'.`);
  }
  if (quantity === 0) return result([]);
  const fitting = candidates.filter((p) => quantity % p.pack_size === 0);
  const pack = fitting.reduce<Pack | undefined>((best, p) => (best === undefined || p.pack_size > best.pack_size ? p : best), undefined);
  if (!pack) {
    const sizes = [...new Set(candidates.map((p) => p.pack_size))].sort((a, b) => a - b);
    const size = sizes[0]!;
    const below = Math.floor(quantity / size) * size;
    const hint = sizes.length > 1 ? `packs hold ${sizes.join(', ')} credits` : below === 0 ? `a pack holds ${size} credits` : `packs of ${size}: ${below} or ${below + size} would fit`;
    throw new PricingError('credit_pack_mismatch', `${quantity} credits is not a whole number of packs (${hint}).`);
  }
  const amount = BigInt(quantity / pack.pack_size) * BigInt(pack.amount);
  return result([{ from: 1, to: null, units: quantity, amount }]);
}

function outOfRange(bands: Band[], quantity: number): PricingError {
  const end = bands[bands.length - 1]!.to;
  return new PricingError('quantity_out_of_range', `The quantity ${quantity} is above the last tier, which ends at ${end}: add an open-ended last tier (to: null) or lower the quantity.`);
}

type Charge = Omit<TierCharge, 'amount'> & { amount: bigint };

function result(charges: Charge[]): PriceResult {
  let total = 0n;
  const tiers = charges.map((c) => {
    total += c.amount;
    return { from: c.from, to: c.to, units: c.units, amount: safe(c.amount) };
  });
  return { amount: safe(total), tiers };
}

function safe(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new PricingError('amount_too_large', `The computed amount (${amount}) is too large to be represented exactly; lower the quantity or the prices.`);
  }
  return Number(amount);
}
