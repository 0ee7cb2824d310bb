/**
 * Billing periods on the wall clock of a time zone, with Intl only (no date library): a period boundary is "the same
 * local day and time, k intervals after the anchor", so a monthly subscription renews at 00:00 in Paris on the 31st
 * (clamped to the month's last day) whether Paris is at UTC+1 or UTC+2 that day. Each boundary is computed from the
 * anchor and its index, never from the previous boundary: month ends do not drift (31 Jan → 28/29 Feb → 31 Mar) and a
 * DST change can neither create nor skip a period (boundaries are strictly increasing in k).
 */
import type { RecurringInterval } from './subscription';

/** A local date and time (month 1–12), as a wall clock in some zone shows it. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export const UTC_ZONE = 'Etc/UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** What a clock in `zone` shows at the instant `epochMs`. */
export function wallClockAt(epochMs: number, zone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(epochMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second!,
    millisecond: ((epochMs % 1000) + 1000) % 1000,
  };
}

const asUtc = (w: WallClock) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);

/** The zone's offset from UTC at `epochMs`, in ms (Paris in winter: +3,600,000). */
const offsetAt = (epochMs: number, zone: string) => asUtc(wallClockAt(epochMs, zone)) - epochMs;

const DAY_MS = 86_400_000;

/**
 * The instant a clock in `zone` shows `local`. Ambiguous times (the hour repeated when clocks go back) take the
 * earlier instant; skipped times (the hour that does not exist when clocks go forward) are moved forward by the gap
 * (02:30 in Paris on the last Sunday of March is 03:30 CEST). Temporal's `compatible` rule, which Stripe and most
 * calendars follow.
 */
export function instantOf(local: WallClock, zone: string): number {
  const naive = asUtc(local);
  const before = offsetAt(naive - DAY_MS, zone);
  const after = offsetAt(naive + DAY_MS, zone);
  const candidates = [...new Set([naive - before, naive - after])].filter((t) => offsetAt(t, zone) === naive - t).sort((a, b) => a - b);
  return candidates[0] ?? naive - before;
}

const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * `steps` intervals after `anchor` on the wall clock of `zone`: same local time of day; months and years land on the
 * anchor's day of month, clamped to the target month's last day (anchored on the 31st: 28/29 Feb, 31 Mar, 30 Apr).
 */
export function addLocalInterval(anchor: string, interval: RecurringInterval, steps: number, zone: string): string {
  const start = Date.parse(anchor);
  if (steps === 0) return new Date(start).toISOString();
  const local = wallClockAt(start, zone);
  let target: WallClock;
  if (interval.period === 'days' || interval.period === 'weeks') {
    const days = steps * interval.count * (interval.period === 'weeks' ? 7 : 1);
    const date = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
    target = { ...local, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
  } else {
    const months = local.month - 1 + steps * interval.count * (interval.period === 'years' ? 12 : 1);
    const year = local.year + Math.floor(months / 12);
    const month = (((months % 12) + 12) % 12) + 1;
    target = { ...local, year, month, day: Math.min(local.day, lastDayOf(year, month)) };
  }
  return new Date(instantOf(target, zone)).toISOString();
}
