/**
 * Price shapes of a price configuration and the input and output of the pricing engine.
 * Amounts are integers in the minor unit of the configuration's currency; quantities are whole units.
 * Semantics, boundary convention and rounding: docs/pricing.md.
 */

export const PRICE_TYPES = ['fee', 'volume', 'packaged', 'bulk', 'bps', 'bundle'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];

/** What a tier charges when the quantity ends inside it (volume, bulk) or inside a package (packaged). */
export const TIER_RULES = ['pro_rata', 'pay_in_full', 'do_not_charge'] as const;
export type TierRule = (typeof TIER_RULES)[number];

/** A flat amount per unit of quantity (usually 1). */
export type FeePrice = {
  /** Stored prices carry their id (`pri_…`); request bodies do not. */
  id?: string;
  amount: number;
};

/**
 * One tier of a volume, packaged or bulk price: `amount` is the price of `unit_count` units (so a unit may cost a
 * fraction of the minor unit: 5 per 1,000 units). `from`/`to` are unit numbers, `to` inclusive, `null` = open-ended;
 * the first tier starts at 0 or 1 (both mean "from the first unit") and each next tier at the previous `to` + 1.
 */
export type Tier = {
  /** Stored prices carry their id (`pri_…`); request bodies do not. */
  id?: string;
  from: number;
  to: number | null;
  amount: number;
  unit_count: number;
  on_tier_incomplete: TierRule;
};

/**
 * One tier of a bps price. Each unit (a transaction) costs `percentage` % of the unit's amount, rounded to the minor
 * unit, plus `per_unit_fee`, then held between `per_unit_floor` and `per_unit_cap`. Tiers split units like bulk.
 */
export type BpsTier = {
  /** Stored prices carry their id (`pri_…`); request bodies do not. */
  id?: string;
  from: number;
  to: number | null;
  /** 0–100 with at most 4 decimals (0.25 = 25 basis points). */
  percentage: number;
  per_unit_cap?: number | null;
  per_unit_floor?: number | null;
  per_unit_fee?: number | null;
};

/** A credit pack: `amount` buys `pack_size` credits; quantities must be whole numbers of packs. */
export type Pack = {
  /** Stored prices carry their id (`pri_…`); request bodies do not. */
  id?: string;
  amount: number;
  pack_size: number;
};

/**
 * The priced part of a price configuration. Stored prices also carry `id` (and may carry other members: the
 * price shapes are type aliases, not interfaces, so a `Record<string, unknown>[]` can be asserted to them).
 */
export type PricedConfiguration =
  | { type: 'fee'; prices: FeePrice[] }
  | { type: 'volume' | 'packaged' | 'bulk'; prices: Tier[] }
  | { type: 'bps'; prices: BpsTier[] }
  | { type: 'bundle'; prices: Pack[] };

export interface PriceInput {
  /** Whole units (seats, API calls, transactions, credits); ≥ 0. */
  quantity: number;
  /** bps only (required there, ignored elsewhere): the amount of EACH unit, in minor units, ≥ 0. */
  amount?: number;
  /** bundle only (optional): the `id` of the pack to buy; without it see docs/pricing.md#bundle. */
  price_id?: string;
}

/** What one tier (or pack, or fee) contributed. `from`/`to` are the tier's own bounds. */
export interface TierCharge {
  from: number;
  to: number | null;
  /** Units of the quantity that fall in this tier. */
  units: number;
  /** Integer, minor units, already rounded. */
  amount: number;
}

export interface PriceResult {
  /** The sum of `tiers[].amount`. */
  amount: number;
  /** The tiers that received units, in ascending order; empty for a quantity of 0. */
  tiers: TierCharge[];
}

/** A problem of a price configuration, as the route returns it (400): `path` like `prices.1.from`. */
export interface PricingProblem {
  path: string;
  message: string;
}
