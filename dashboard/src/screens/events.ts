import { api, ok } from '../api/client';
import { h } from '../dom';
import { count, dateTime } from '../format';
import { t } from '../i18n';
import { filterForm, link, PAGE_SIZE, screen, table } from '../ui';

const DAY = 86_400_000;
/** A day typed in the filter (`YYYY-MM-DD`, UTC) as the API's instant; `after` moves to the end of that day. */
const instant = (day: string | null, after = false) => (day ? new Date(Date.parse(`${day}T00:00:00Z`) + (after ? DAY : 0)).toISOString() : undefined);

/** Previous/next by the API's offsets: GET /v1/events says whether more follow (`has_more`), not how many there are. */
function eventPager(meta: { taken: number; skipped: number; has_more: boolean }, query: URLSearchParams): HTMLElement {
  const at = (skip: number) => {
    const next = new URLSearchParams(query);
    next.set('skip', String(skip));
    return `${location.pathname}?${next}`;
  };
  const first = meta.taken === 0 ? 0 : meta.skipped + 1;
  return h(
    'nav',
    { class: 'pager', 'aria-label': t('pagination') },
    h('p', {}, t('eventRange', { first: count(first), last: count(meta.skipped + meta.taken) })),
    meta.skipped > 0 ? link(at(Math.max(0, meta.skipped - PAGE_SIZE)), t('previous'), { rel: 'prev' }) : null,
    meta.has_more ? link(at(meta.skipped + meta.taken), t('next'), { rel: 'next' }) : null,
  );
}

/**
 * The events explorer: one customer's billable events, newest first (GET /v1/events, which needs the customer: events
 * are indexed per customer), filtered by event type and UTC days, a page at a time.
 */
export function eventsScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('events'), async () => {
    const customer = query.get('customer_id');
    const filters = filterForm([
      { name: 'customer_id', label: t('customerId'), required: true, hint: t('eventsCustomerHint') },
      { name: 'event_type', label: t('eventType') },
      { name: 'from', label: t('fromDay'), type: 'date' },
      { name: 'to', label: t('throughDay'), type: 'date' },
    ], query, 'events');
    const head = [h('h1', {}, t('events')), h('p', {}, link('/dashboard/usage', t('usage'))), filters];
    if (!customer) return [...head, h('p', { class: 'empty' }, t('eventsNeedCustomer'))];
    const page = ok(await api.GET('/v1/events', {
      params: {
        query: {
          customer_id: customer, event_type: query.get('event_type') || undefined, timestamp__gte: instant(query.get('from')), timestamp__lt: instant(query.get('to'), true),
          take: PAGE_SIZE, skip: Number(query.get('skip') ?? 0),
        },
      },
    }));
    return [
      ...head,
      table(t('events'), [
        { label: t('timestamp'), cell: (e) => dateTime(e.timestamp) },
        { label: t('eventType'), cell: (e) => h('code', {}, e.event_type) },
        { label: 'id', cell: (e) => h('code', {}, e.id) },
        { label: t('record'), cell: (e) => h('code', { class: 'record' }, JSON.stringify(e.record)) },
        { label: t('ingestedAt'), cell: (e) => dateTime(e.ingested_at) },
      ], page.data, t('noEvents')),
      eventPager(page.meta, query),
    ];
  });
}
