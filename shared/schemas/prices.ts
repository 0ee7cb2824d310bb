/**
 * JSON Schemas of the `prices` of a price configuration, one shape per price type (docs/pricing.md).
 * Standard keywords only (ajv strict). What a schema cannot say — tiers contiguous and ascending, the first from 0
 * or 1, only the last open-ended, at most 4 decimals in a percentage, floor ≤ cap — is checked by
 * `validateTiers` (shared/domain/pricing/validate-tiers.ts), whose problems the route returns as a 400 too.
 */
import { MAX_PACKS, MAX_TIERS } from '../domain/pricing/validate-tiers';
import { PRICE_TYPES, TIER_RULES, type PriceType } from '../domain/pricing/types';
import type { Schema } from './common';

export { PRICE_TYPES, TIER_RULES };

/** Minor units: whole, ≥ 0, and far below 2^53 so that sums stay exact. */
const MAX_AMOUNT = 1_000_000_000_000;
const MAX_UNITS = 1_000_000_000_000;

const minorAmount = { type: 'integer', minimum: 0, maximum: MAX_AMOUNT };
const optionalMinorAmount = { type: ['integer', 'null'], minimum: 0, maximum: MAX_AMOUNT };
const unitNumber = { type: 'integer', minimum: 0, maximum: MAX_UNITS };
const bound = {
  from: { ...unitNumber, description: 'First unit of the tier; the first tier starts at 0 or 1, each next one at the previous `to` + 1.' },
  to: { type: ['integer', 'null'], minimum: 1, maximum: MAX_UNITS, description: 'Last unit of the tier, included; null (or omitted): open-ended, last tier only.' },
};

export const feePriceSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount'],
  properties: { amount: { ...minorAmount, description: 'Price of one unit (usually quantity 1), in minor units.' } },
};

export const tierSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'amount'],
  properties: {
    ...bound,
    amount: { ...minorAmount, description: 'Price of `unit_count` units, in minor units.' },
    unit_count: { type: 'integer', minimum: 1, maximum: MAX_UNITS, description: 'Units priced by `amount` (packaged: the package size). Default 1.' },
    on_tier_incomplete: { type: 'string', enum: [...TIER_RULES], description: 'What an incomplete tier (packaged: package) costs. Default pro_rata.' },
  },
};

export const bpsTierSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'percentage'],
  properties: {
    ...bound,
    percentage: { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.0001, description: 'Percent of each unit\'s amount, at most 4 decimals (0.25 = 25 bps).' },
    per_unit_cap: { ...optionalMinorAmount, description: 'Most one unit costs, in minor units.' },
    per_unit_floor: { ...optionalMinorAmount, description: 'Least one unit costs, in minor units.' },
    per_unit_fee: { ...optionalMinorAmount, description: 'Fixed amount added to each unit, in minor units.' },
  },
};

export const packSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'pack_size'],
  properties: {
    amount: { ...minorAmount, description: 'Price of one pack, in minor units.' },
    pack_size: { type: 'integer', minimum: 1, maximum: MAX_UNITS, description: 'Credits in one pack.' },
  },
};

const ITEMS: Record<PriceType, { items: Schema; maxItems: number }> = {
  fee: { items: feePriceSchema, maxItems: 1 },
  volume: { items: tierSchema, maxItems: MAX_TIERS },
  packaged: { items: tierSchema, maxItems: MAX_TIERS },
  bulk: { items: tierSchema, maxItems: MAX_TIERS },
  bps: { items: bpsTierSchema, maxItems: MAX_TIERS },
  bundle: { items: packSchema, maxItems: MAX_PACKS },
};

/** Hyperline's prices also carry their configuration's `type` and an `id`: the domain checks the one, drops both. */
const hyperlinePriceMembers = {
  type: { type: 'string', enum: [...PRICE_TYPES], description: "Hyperline's: the configuration's type (another is a 400)." },
  id: { type: 'string', maxLength: 255, description: "Hyperline's price id: ignored, every stored price gets a new id." },
};

/** The schema of a `prices` array of the given type (as a request gives it). */
export function pricesSchemaFor(type: PriceType): Schema {
  const { items, maxItems } = ITEMS[type];
  return { type: 'array', minItems: 1, maxItems, items: { ...items, properties: { ...(items.properties as object), ...hyperlinePriceMembers } } };
}
