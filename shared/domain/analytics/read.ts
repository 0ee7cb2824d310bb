import type { Ctx } from '../../context';
import { queryItems } from '../../db/query';
import { RuleViolation } from '../../errors';
import { findEntityItem } from '../invoicing-entities/read';
import type { Family } from './facts';
import { analyticsPartitions } from './items';
import { METRICS, type Interval, type MetricName } from './metrics';
import { ageingOf, periodStart, seriesOf, type DataPoint, type DayValues } from './series';

export interface AnalyticsQuery {
  currency: string;
  from?: string;
  to?: string;
  interval?: Interval;
  invoicing_entity_id?: string;
}

export interface MetricSeries {
  metric: MetricName;
  currency: string;
  interval: Interval;
  invoicing_entity_id: string | null;
  from: string;
  to: string;
  data: DataPoint[];
}

/** The longest range one read answers (about eleven years of days). */
export const MAX_RANGE_DAYS = 4_000;
const DAY_MS = 86_400_000;
const today = (ctx: Ctx): string => ctx.clock.now().toISOString().slice(0, 10);

/**
 * The days one family holds in a currency from `from` (undefined: its first) to `to` (undefined: its last), the
 * numbers `parts` of the entity's items (all entities' without one), shards and entities summed per day. One Query
 * per partition of the family (items.ts), in parallel, each followed across its 1 MB pages: the items are per day,
 * so their number follows the days with activity, not the documents.
 */
export async function readDays(ctx: Ctx, family: Family, currency: string, parts: readonly string[], range: { from?: string; to?: string }, entity?: string): Promise<DayValues[]> {
  const names: Record<string, string> = { '#day': 'day', '#entity': 'entity' };
  parts.forEach((part, i) => (names[`#p${i}`] = part));
  const bounds = { ':from': range.from ?? '0', ':to': `${range.to ?? '9'}#~` };
  const pages = await Promise.all(analyticsPartitions(ctx, family, currency).map((pk) => queryItems<Record<string, unknown>>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': pk, ...bounds },
    ExpressionAttributeNames: names,
    ProjectionExpression: Object.keys(names).join(', '),
  })));
  const items = pages.flatMap((page) => page.items);
  const byDay = new Map<string, Record<string, number>>();
  for (const item of items) {
    if (entity !== undefined && item.entity !== entity) continue;
    const values = byDay.get(String(item.day)) ?? {};
    for (const part of parts) values[part] = (values[part] ?? 0) + Number(item[part] ?? 0);
    byDay.set(String(item.day), values);
  }
  return [...byDay].map(([day, values]) => ({ day, values }));
}

/** `GET /v1/analytics/{metric}`: the metric's data points over [from, to] (days, UTC), one Query per partition. */
export async function readMetric(ctx: Ctx, metric: MetricName, query: AnalyticsQuery): Promise<MetricSeries> {
  const definition = METRICS[metric];
  const interval = query.interval ?? 'month';
  const asked = rangeOf(ctx, query, interval);
  // Recognised revenue is kept per service month (on its first day): a range counts the whole months it touches.
  const { from, to } = definition.family === 'REC' ? { ...asked, from: periodStart(asked.from, 'month') } : asked;
  const entity = query.invoicing_entity_id;
  if (entity !== undefined) await findEntityItem(ctx, entity);
  const range = definition.kind === 'flow' ? { from, to } : definition.kind === 'level' ? { to } : {};
  const items = await readDays(ctx, definition.family, query.currency, definition.parts, range, entity);
  const data = definition.kind === 'aged' ? [ageingOf(items, today(ctx))] : seriesOf(definition, items, from, to, interval);
  return { metric, currency: query.currency, interval, invoicing_entity_id: entity ?? null, from, to, data };
}

/** The range asked, or by default the last 12 months, 12 weeks or 30 days up to today; checked and bounded. */
function rangeOf(ctx: Ctx, query: AnalyticsQuery, interval: Interval): { from: string; to: string } {
  const to = query.to ?? today(ctx);
  let from = query.from;
  if (!from) {
    const back = { day: 29, week: 7 * 11, month: 0 }[interval];
    from = interval === 'month' ? monthsBefore(to, 11) : new Date(Date.parse(to) - back * DAY_MS).toISOString().slice(0, 10);
  }
  for (const [name, day] of [['from', from], ['to', to]] as const) {
    if (Number.isNaN(Date.parse(day)) || new Date(day).toISOString().slice(0, 10) !== day) throw new RuleViolation('invalid_date', `'${name}' is no calendar day (YYYY-MM-DD): '${day}'.`);
  }
  if (from > to) throw new RuleViolation('invalid_range', `'from' (${from}) is after 'to' (${to}).`);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS > MAX_RANGE_DAYS) throw new RuleViolation('invalid_range', `A read covers at most ${MAX_RANGE_DAYS} days; ask for a shorter range.`);
  return { from, to };
}

const monthsBefore = (day: string, months: number): string => {
  const at = new Date(day);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - months, 1)).toISOString().slice(0, 10);
};

/** `GET /v1/analytics`: the headline figures of a currency today (three Queries: MRR family, billing, receivables). */
export async function readOverview(ctx: Ctx, query: Pick<AnalyticsQuery, 'currency' | 'invoicing_entity_id'>) {
  const entity = query.invoicing_entity_id;
  if (entity !== undefined) await findEntityItem(ctx, entity);
  const day = today(ctx);
  const month = periodStart(day, 'month');
  const levels = ['mrr', 'active_customers', 'active_subscriptions', 'churned_customers', 'new', 'expansion', 'contraction', 'churn', 'reactivation'];
  const [mrrDays, billingDays, receivableDays] = await Promise.all([
    readDays(ctx, 'MRR', query.currency, levels, { to: day }, entity),
    readDays(ctx, 'BIL', query.currency, ['invoiced', 'collected', 'credited', 'refunded'], { from: month, to: day }, entity),
    readDays(ctx, 'AR', query.currency, ['outstanding'], {}, entity),
  ]);
  const sum = (days: readonly DayValues[], part: string, since = '0') => days.filter((d) => d.day >= since).reduce((a, d) => a + (d.values[part] ?? 0), 0);
  const mrr = sum(mrrDays, 'mrr');
  const activeCustomers = sum(mrrDays, 'active_customers');
  const receivables = ageingOf(receivableDays, day);
  const { period_start: _, value: outstanding, ...ageing } = receivables;
  return {
    currency: query.currency, invoicing_entity_id: entity ?? null, date: day, month_start: month,
    mrr, arr: 12 * mrr, arpa: activeCustomers > 0 ? Math.round(mrr / activeCustomers) : 0,
    active_customers: activeCustomers, active_subscriptions: sum(mrrDays, 'active_subscriptions'),
    month: {
      churned_customers: sum(mrrDays, 'churned_customers', month),
      mrr_movements: Object.fromEntries(['new', 'expansion', 'contraction', 'churn', 'reactivation'].map((m) => [m, sum(mrrDays, m, month)])),
      invoiced: sum(billingDays, 'invoiced'), collected: sum(billingDays, 'collected'), credited: sum(billingDays, 'credited'), refunded: sum(billingDays, 'refunded'),
    },
    outstanding_receivables: { total: outstanding, ...ageing },
  };
}
