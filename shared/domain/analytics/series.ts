import { AGEING, type Interval, type MetricDefinition } from './metrics';

/** A day item's numbers as read (its shards and entities not yet summed). */
export interface DayValues {
  day: string;
  values: Record<string, number>;
}

export interface DataPoint {
  period_start: string;
  value: number;
  [part: string]: number | string;
}

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number): string => new Date(Date.parse(day) + n * DAY_MS).toISOString().slice(0, 10);

/** The first day of the period holding `day`: itself, its ISO week's Monday, or its month's first. */
export function periodStart(day: string, interval: Interval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The first day of the period after the one starting `start`. */
export function nextPeriod(start: string, interval: Interval): string {
  if (interval === 'day') return addDays(start, 1);
  if (interval === 'week') return addDays(start, 7);
  const at = new Date(start);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

/**
 * Pure: the data points of [from, to] (days, both included) from the day items read. A flow sums its parts over the
 * period's days within [from, to]; a level sums them over every day up to the period's last (or `to`), so its items
 * are read from the first day there is.
 */
export function seriesOf(metric: MetricDefinition, items: readonly DayValues[], from: string, to: string, interval: Interval): DataPoint[] {
  const sorted = [...items].sort((a, b) => a.day.localeCompare(b.day));
  const points: DataPoint[] = [];
  const running: Record<string, number> = {};
  let at = 0;
  for (let start = periodStart(from, interval); start <= to; start = nextPeriod(start, interval)) {
    const end = nextPeriod(start, interval);
    const period: Record<string, number> = Object.fromEntries(metric.parts.map((p) => [p, 0]));
    for (; at < sorted.length && sorted[at]!.day < end && sorted[at]!.day <= to; at++) {
      const { day, values } = sorted[at]!;
      for (const part of metric.parts) {
        running[part] = (running[part] ?? 0) + (values[part] ?? 0);
        if (day >= from && day >= start) period[part]! += values[part] ?? 0;
      }
    }
    const parts = metric.kind === 'level' ? Object.fromEntries(metric.parts.map((p) => [p, running[p] ?? 0])) : period;
    points.push(pointOf(metric, start, parts));
  }
  return points;
}

function pointOf(metric: MetricDefinition, start: string, parts: Record<string, number>): DataPoint {
  const value = Object.values(parts).reduce((a, b) => a + b, 0) * (metric.factor ?? 1);
  return metric.parts.length > 1 ? { period_start: start, value, ...parts } : { period_start: start, value };
}

/** Pure: receivables by due day, aged against `today`: one point (today) with the amount in each bucket. */
export function ageingOf(items: readonly DayValues[], today: string): DataPoint {
  const buckets: Record<string, number> = Object.fromEntries(AGEING.map((b) => [b.name, 0]));
  for (const { day, values } of items) {
    const overdue = Math.round((Date.parse(today) - Date.parse(day)) / DAY_MS);
    const bucket = AGEING.find((b) => overdue <= b.upTo)!;
    buckets[bucket.name]! += values.outstanding ?? 0;
  }
  return { period_start: today, value: Object.values(buckets).reduce((a, b) => a + b, 0), ...buckets };
}
