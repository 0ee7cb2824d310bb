/**
 * Tax rates are percentages with at most 4 decimals ('20', '25.5', '8.1', 7.25), held exactly as the scaled
 * integers of the pricing engine (shared/domain/pricing/arithmetic.ts): ten-thousandths of a percent, i.e. the
 * fraction scaled / 1,000,000. No floating-point value is ever multiplied by an amount.
 */
import { PERCENT_DECIMALS, scaledPercentage } from '../domain/pricing/arithmetic';

const DECIMAL = /^(\d{1,3})(?:\.(\d{1,4}))?$/;
const MAX_SCALED = 100n * 10n ** BigInt(PERCENT_DECIMALS);

/** The rate in ten-thousandths of a percent ('25.5' → 255,000n). Throws RangeError outside 0–100 or > 4 decimals. */
export function scaledRate(rate: string | number): bigint {
  let scaled: bigint | undefined;
  if (typeof rate === 'number') {
    scaled = scaledPercentage(rate);
  } else {
    const m = DECIMAL.exec(rate);
    if (m) scaled = BigInt(m[1]!) * 10n ** BigInt(PERCENT_DECIMALS) + BigInt((m[2] ?? '').padEnd(PERCENT_DECIMALS, '0'));
  }
  if (scaled === undefined || scaled < 0n || scaled > MAX_SCALED) {
    throw new RangeError(`A tax rate is a percentage from 0 to 100 with at most ${PERCENT_DECIMALS} decimals, got ${String(rate)}`);
  }
  return scaled;
}

/** The canonical decimal string of a rate: 20 → '20', '8.10' → '8.1', 0.5 → '0.5'. */
export function formatRate(rate: string | number): string {
  const scaled = scaledRate(rate);
  const unit = 10n ** BigInt(PERCENT_DECIMALS);
  const whole = scaled / unit;
  const fraction = (scaled % unit).toString().padStart(PERCENT_DECIMALS, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
