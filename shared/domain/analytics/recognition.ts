/**
 * Revenue recognition (docs/analytics.md, "Recognised revenue"): a line's amount spread straight-line over the calendar
 * months of its service period. Each month weighs the share of its own days the period covers (a full month 1, a
 * partial month its days ÷ the month's days), so a 12-month prepaid period recognises 1/12 in each month whatever the
 * months' lengths. Exact: weights are integers over a common denominator, and the cents are handed out by largest
 * remainder (ties to the earlier month), so the parts always add up to the line's amount.
 */

/** lcm(28, 29, 30, 31): every month's day count divides it, so a month's weight is an exact integer. */
const MONTH_LCM = 377_580n;
const DAY_MS = 86_400_000;

/** `2026-11`: the UTC month of an ISO date or timestamp. */
export const monthOf = (iso: string): string => iso.slice(0, 7);

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** Whole UTC days of [start, end) in each calendar month (a period shorter than a day counts one day in its month). */
export function daysByMonth(startIso: string, endIso: string): Map<string, { days: number; ofMonth: number }> {
  const start = Date.UTC(...ymd(startIso));
  const end = Math.max(start + DAY_MS, Date.UTC(...ymd(endIso)));
  const months = new Map<string, { days: number; ofMonth: number }>();
  for (let day = start; day < end; ) {
    const at = new Date(day);
    const [year, month] = [at.getUTCFullYear(), at.getUTCMonth()];
    const next = Math.min(end, Date.UTC(year, month + 1, 1));
    months.set(monthOf(at.toISOString()), { days: Math.round((next - day) / DAY_MS), ofMonth: daysInMonth(year, month) });
    day = next;
  }
  return months;
}

function ymd(iso: string): [number, number, number] {
  const at = new Date(iso);
  return [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
}

/** `amount` (minor units, either sign) split in proportion to integer `weights`, the parts summing to it exactly. */
export function distribute(amount: number, weights: readonly bigint[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0n);
  if (total === 0n) return weights.map((_, i) => (i === 0 ? amount : 0));
  const sign = amount < 0 ? -1n : 1n;
  const whole = BigInt(Math.abs(amount));
  const floors = weights.map((w) => (whole * w) / total);
  let left = whole - floors.reduce((a, b) => a + b, 0n);
  const byRemainder = weights.map((w, i) => ({ i, rest: (whole * w) % total })).sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left === 0n) break;
    floors[i]! += 1n;
    left -= 1n;
  }
  return floors.map((part) => Number(part * sign));
}

/** The amount recognised in each month (`YYYY-MM`) of the service period [start, end); the parts sum to `amount`. */
export function recogniseByMonth(amount: number, startIso: string, endIso: string): Map<string, number> {
  const months = [...daysByMonth(startIso, endIso)];
  const parts = distribute(amount, months.map(([, { days, ofMonth }]) => (BigInt(days) * MONTH_LCM) / BigInt(ofMonth)));
  return new Map(months.map(([month], i) => [month, parts[i]!]));
}
