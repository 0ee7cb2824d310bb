import { api, ok, type Schemas } from '../api/client';
import { chart } from '../chart';
import { h } from '../dom';
import { count, date } from '../format';
import { locale, t } from '../i18n';
import { filterForm, link, PAGE_SIZE, pager, screen, table } from '../ui';

type Aggregator = Schemas['Aggregator'];
const DAY = 86_400_000;
const day = (iso: string) => new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * A customer's usage of one aggregator by UTC day over [from, to): a chart with its figures as a table (the events
 * themselves: events.ts).
 */
export async function usageChart(customerId: string, aggregator: { id: string; name: string }, from: Date, to: Date): Promise<HTMLElement> {
  const answer = ok(await api.GET('/v1/customers/{id}/usage', { params: { path: { id: customerId }, query: { aggregator_id: aggregator.id, from: from.toISOString(), to: to.toISOString() } } }));
  // With `aggregator_id` the API answers that aggregator's reading; the list (one row per aggregator) is without it.
  if (Array.isArray(answer)) throw new Error('GET /v1/customers/{id}/usage answered a list for one aggregator');
  const usage = answer;
  const unit = usage.unit_name ? ` (${usage.unit_name})` : '';
  return h(
    'div',
    {},
    chart(t('usageOf', { name: aggregator.name, total: count(usage.value) + unit }), usage.days.map((d) => d.date), [{ label: aggregator.name, values: usage.days.map((d) => d.value), colour: '#0072B2' }], count, day),
  );
}

/** Usage: the aggregators (what is metered, how) and an explorer of one customer's usage of one of them by day. */
export function usageScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('usage'), async () => {
    const aggregators = ok(await api.GET('/v1/aggregators', { params: { query: { take: PAGE_SIZE, skip: Number(query.get('skip') ?? 0) } } }));
    const to = query.get('to') ? new Date(`${query.get('to')}T00:00:00Z`) : new Date(Date.parse(isoDay(new Date())) + DAY);
    const from = query.get('from') ? new Date(`${query.get('from')}T00:00:00Z`) : new Date(to.getTime() - 30 * DAY);
    const customer = query.get('customer_id');
    const chosen = aggregators.data.find((a) => a.id === query.get('aggregator_id'));
    return [
      h('h1', {}, t('usage')),
      h('p', {}, link('/dashboard/usage/events', t('eventsExplorer'))),
      h('h2', {}, t('aggregators')),
      table<Aggregator>(t('aggregators'), [
        { label: t('name'), cell: (a) => a.name },
        { label: t('eventType'), cell: (a) => h('code', {}, a.event_type) },
        { label: t('operation'), cell: (a) => (a.property ? `${a.operation}(${a.property})` : a.operation) },
        { label: t('unit'), cell: (a) => a.unit_name ?? '—' },
        { label: t('filters'), cell: (a) => (a.filters.length ? a.filters.map((f) => `${f.property} ${f.operator} ${f.value === undefined ? '' : JSON.stringify(f.value)}`).join('; ') : '—') },
        { label: 'id', cell: (a) => h('code', {}, a.id) },
      ], aggregators.data, t('noAggregators')),
      pager(aggregators.meta, query),
      h('h2', {}, t('usageExplorer')),
      h('p', { class: 'hint' }, t('usageExplorerHint')),
      filterForm([
        { name: 'customer_id', label: t('customerId'), required: true },
        { name: 'aggregator_id', label: t('aggregator'), type: 'select', required: true, options: aggregators.data.map((a): [string, string] => [a.id, a.name]) },
        { name: 'from', label: t('fromDay'), type: 'date', hint: t('fromDayHint') },
        { name: 'to', label: t('toDay'), type: 'date', hint: t('toDayHint') },
      ], query, 'usageExplorer'),
      customer && chosen
        ? h('div', {}, h('p', {}, link(`/dashboard/customers/${encodeURIComponent(customer)}`, customer), ` · ${date(from.toISOString())} → ${date(to.toISOString())}`), await usageChart(customer, chosen, from, to))
        : null,
    ];
  });
}

/** A customer's usage over the last 30 days, one chart per aggregator its subscriptions' metered products name. */
export async function customerUsage(customerId: string, subscriptions: Schemas['Subscription'][]): Promise<HTMLElement[]> {
  const metered = new Map<string, string>();
  for (const s of subscriptions) for (const p of s.products) if (p.aggregator_id && s.status !== 'cancelled') metered.set(p.aggregator_id, p.name);
  if (metered.size === 0) return [h('p', { class: 'empty' }, t('noMeteredProducts'))];
  const to = new Date(Date.parse(isoDay(new Date())) + DAY);
  const from = new Date(to.getTime() - 30 * DAY);
  return Promise.all([...metered].map(([id, name]) => usageChart(customerId, { id, name }, from, to)));
}
