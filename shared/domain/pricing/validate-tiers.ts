import { isWhole, scaledPercentage } from './arithmetic';
import { PRICE_TYPES, TIER_RULES, type PricedConfiguration, type PricingProblem } from './types';

/** At most this many tiers (or packs) per configuration; the JSON Schemas say the same. */
export const MAX_TIERS = 50;
export const MAX_PACKS = 20;

type Loose = Record<string, unknown>;

/**
 * Every problem of a configuration's prices, as `{path, message}` (`prices.2.from`), or `[]` if it can be priced.
 * Tiers (volume, packaged, bulk, bps) must be listed in ascending order, the first starting at 0 or 1, each next
 * one at the previous `to` + 1 (no gap, no overlap), only the last one open-ended (`to: null`).
 * Tolerates members it does not know (`id`, `type`) and fills the documented defaults (`to`, `unit_count`,
 * `on_tier_incomplete`) before checking.
 */
export function validateTiers(config: PricedConfiguration): PricingProblem[] {
  const problems: PricingProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const type = (config as { type?: unknown }).type;
  const prices = (config as { prices?: unknown }).prices;
  if (!(PRICE_TYPES as readonly unknown[]).includes(type)) {
    add('type', `must be one of: ${PRICE_TYPES.join(', ')}`);
    return problems;
  }
  if (!Array.isArray(prices) || prices.length === 0) {
    add('prices', 'must be a list of at least one price');
    return problems;
  }
  if (prices.some((p) => typeof p !== 'object' || p === null || Array.isArray(p))) {
    prices.forEach((p, i) => (typeof p !== 'object' || p === null || Array.isArray(p)) && add(`prices.${i}`, 'must be an object'));
    return problems;
  }
  const items = prices as Loose[];
  const amount = (p: Loose, i: number, key = 'amount') => {
    if (!isWhole(p[key])) add(`prices.${i}.${key}`, 'must be a whole number of minor units, 0 or more');
  };
  const optionalAmount = (p: Loose, i: number, key: string) => {
    if (p[key] !== undefined && p[key] !== null) amount(p, i, key);
  };

  switch (type) {
    case 'fee':
      if (items.length > 1) add('prices', 'a fee configuration has exactly one price');
      items.forEach((p, i) => amount(p, i));
      break;
    case 'bundle':
      if (items.length > MAX_PACKS) add('prices', `must have at most ${MAX_PACKS} packs`);
      items.forEach((p, i) => {
        amount(p, i);
        if (!isWhole(p.pack_size) || p.pack_size < 1) add(`prices.${i}.pack_size`, 'must be a whole number of credits, 1 or more');
      });
      break;
    case 'bps':
      checkBounds(items, add);
      items.forEach((p, i) => {
        const pct = p.percentage;
        if (typeof pct !== 'number' || !(pct >= 0 && pct <= 100)) add(`prices.${i}.percentage`, 'must be a number from 0 to 100');
        else if (scaledPercentage(pct) === undefined) add(`prices.${i}.percentage`, 'must have at most 4 decimals (0.0001 % is the smallest step)');
        optionalAmount(p, i, 'per_unit_cap');
        optionalAmount(p, i, 'per_unit_floor');
        optionalAmount(p, i, 'per_unit_fee');
        const { per_unit_cap: cap, per_unit_floor: floor } = p;
        if (isWhole(cap) && isWhole(floor) && floor > cap) add(`prices.${i}.per_unit_floor`, `must not exceed per_unit_cap (${cap})`);
      });
      break;
    default:
      checkBounds(items, add);
      items.forEach((p, i) => {
        amount(p, i);
        const unitCount = p.unit_count ?? 1;
        if (!isWhole(unitCount) || unitCount < 1) add(`prices.${i}.unit_count`, 'must be a whole number of units, 1 or more');
        const rule = p.on_tier_incomplete ?? 'pro_rata';
        if (!(TIER_RULES as readonly unknown[]).includes(rule)) add(`prices.${i}.on_tier_incomplete`, `must be one of: ${TIER_RULES.join(', ')}`);
      });
  }
  // One tier's problems together, tiers in order (the sort is stable): `prices` itself first.
  const index = (path: string) => Number(/^prices\.(\d+)/.exec(path)?.[1] ?? -1);
  return problems.sort((a, b) => index(a.path) - index(b.path));
}

/** from/to of every tier: first from 0 or 1, contiguous, ascending, only the last open-ended. */
function checkBounds(items: Loose[], add: (path: string, message: string) => void): void {
  if (items.length > MAX_TIERS) add('prices', `must have at most ${MAX_TIERS} tiers`);
  let previousTo: number | undefined; // undefined: no valid previous end to compare with
  items.forEach((p, i) => {
    const from = p.from as number; // checked just below (fromOk) before any comparison
    const to = p.to ?? null;
    const last = i === items.length - 1;
    let fromOk = isWhole(from);
    if (!fromOk) add(`prices.${i}.from`, 'must be a whole number of units, 0 or more');
    else if (i === 0 && from > 1) {
      add(`prices.${i}.from`, 'must be 0 or 1: the first tier starts at the first unit');
      fromOk = false;
    } else if (i > 0 && previousTo !== undefined) {
      const expected = previousTo + 1;
      if (from > expected) {
        const missing = from - 1 === expected ? `unit ${expected} is` : `units ${expected} to ${from - 1} are`;
        add(`prices.${i}.from`, `must be ${expected}: ${missing} in no tier (tiers must not leave gaps)`);
      }
      else if (from < expected) add(`prices.${i}.from`, `must be ${expected}: this tier overlaps the previous one, which ends at ${previousTo}`);
    }
    previousTo = undefined;
    if (to === null) {
      if (!last) add(`prices.${i}.to`, 'only the last tier can be open-ended (to: null)');
    } else if (!isWhole(to)) {
      add(`prices.${i}.to`, 'must be a whole number of units, or null for an open-ended last tier');
    } else if (fromOk && to < Math.max(from as number, 1)) {
      add(`prices.${i}.to`, `must be at least ${Math.max(from as number, 1)}: a tier covers the units from \`from\` to \`to\`, both included`);
    } else {
      previousTo = to;
    }
  });
}
