/**
 * Exact arithmetic for prices: BigInt numerators and denominators, rounded once, half up (for the non-negative
 * values the engine handles: half away from zero). No floating-point value is ever accumulated.
 */

/** round(num / den), half up. num ≥ 0, den > 0. */
export function roundHalfUp(num: bigint, den: bigint): bigint {
  if (num < 0n || den <= 0n) throw new RangeError(`roundHalfUp expects num ≥ 0 and den > 0, got ${num}/${den}`);
  return (2n * num + den) / (2n * den);
}

/** ceil(num / den). num ≥ 0, den > 0. */
export const ceilDiv = (num: bigint, den: bigint): bigint => (num + den - 1n) / den;

/** Percentages carry at most 4 decimals: 2.9 % → 29,000 millionths of the amount. */
export const PERCENT_DECIMALS = 4;
const PERCENT_SCALE = 10 ** PERCENT_DECIMALS;
/** A scaled percentage `p` is the fraction p / 1,000,000 (percent = 1/100, four decimals = 1/10,000). */
export const PERCENT_DENOMINATOR = BigInt(100 * PERCENT_SCALE);

/**
 * The exact percentage in ten-thousandths of a percent (0.25 → 2,500), or `undefined` if `p` has more than
 * 4 decimals. Exact: a decimal with ≤ 4 decimals is the double nearest to it, and the double nearest to
 * round(p × 10⁴) / 10⁴ is that same double; any other double fails the round trip.
 */
export function scaledPercentage(p: number): bigint | undefined {
  if (!Number.isFinite(p)) return undefined;
  const scaled = Math.round(p * PERCENT_SCALE);
  return scaled / PERCENT_SCALE === p ? BigInt(scaled) : undefined;
}

export const isWhole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
