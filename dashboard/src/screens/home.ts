import { api, ok } from '../api/client';
import type { paths } from '../api/schema';
import { chart } from '../chart';
import { h } from '../dom';
import { count, dateTime, money } from '../format';
import { locale, t } from '../i18n';
import { details, filterForm, link, screen, table } from '../ui';

type Currency = paths['/v1/analytics']['get']['parameters']['query']['currency'];
type Metric = 'mrr' | 'mrr_movements' | 'invoiced' | 'collected';
const MOVEMENTS = ['new', 'expansion', 'contraction', 'churn', 'reactivation'] as const;
// Colours distinct for the colour-blind (Okabe–Ito) and ≥ 3:1 against white.
const COLOURS = ['#0072B2', '#009E73', '#D55E00', '#CC79A7', '#8a6d00'];

const month = (day: string) => new Intl.DateTimeFormat(locale(), { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/** The currencies the workspace bills in: its invoicing entities' (each currency's figures are read apart). */
async function currencies(): Promise<string[]> {
  const entities = ok(await api.GET('/v1/invoicing-entities', { params: { query: { take: 100 } } }));
  return [...new Set(entities.data.map((e) => e.currency))].sort();
}

/**
 * Home: the revenue analytics of one currency (docs/analytics.md) — MRR and ARR with this month's movements, MRR and
 * its movements over 12 months, invoiced and collected, receivables by age — and what needs looking at: overdue
 * invoices and the last failed payments (the `invoice.payment_failed` messages).
 */
export function homeScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('home'), async () => {
    const known = await currencies();
    const currency = (query.get('currency') || known[0] || 'EUR') as Currency; // the API says so if it is not a currency
    const series = (metric: Metric) => api.GET('/v1/analytics/{metric}', { params: { path: { metric }, query: { currency, interval: 'month' } } }).then(ok);
    const [overview, mrr, movements, invoiced, collected, overdue, failed] = await Promise.all([
      api.GET('/v1/analytics', { params: { query: { currency } } }).then(ok),
      series('mrr'),
      series('mrr_movements'),
      series('invoiced'),
      series('collected'),
      api.GET('/v1/invoices', { params: { query: { take: 0, status__in: 'open,to_pay,partially_paid,grace_period', due_at__lt: new Date().toISOString() } } }).then(ok),
      api.GET('/v1/webhooks/messages', { params: { query: { event_types: 'invoice.payment_failed', limit: 10 } } }).then(ok),
    ]);
    const amount = (minor: number) => money(minor, currency);
    const periods = mrr.data.map((p) => p.period_start);
    const receivables = overview.outstanding_receivables;
    const overdueAmount = receivables.total - receivables.current;
    const card = (label: string, value: string, href?: string) => h('li', { class: 'card' }, href ? link(href, label) : h('p', { class: 'card-label' }, label), h('p', { class: 'figure' }, value));
    const failedInvoice = (data: Record<string, unknown>) => data as { id?: string; number?: string | null; amount_due?: number; currency?: string; dunning?: { attempt?: number } | null };
    return [
      h('h1', {}, t('home')),
      filterForm([{ name: 'currency', label: t('currency'), type: 'select', value: currency, options: (known.includes(currency) ? known : [currency, ...known]).map((c): [string, string] => [c, c]) }], query, 'currencyChoice'),
      h(
        'ul',
        { class: 'cards' },
        card('MRR', amount(overview.mrr)),
        card('ARR', amount(overview.arr)),
        card(t('activeCustomers'), count(overview.active_customers), '/dashboard/customers?status=active'),
        card(t('activeSubscriptions'), count(overview.active_subscriptions), '/dashboard/subscriptions?status=active'),
        card(t('invoicedThisMonth'), amount(overview.month.invoiced)),
        card(t('collectedThisMonth'), amount(overview.month.collected)),
        card(t('outstanding'), amount(receivables.total), '/dashboard/invoices?status=to_pay'),
        card(t('overdueAmount', { count: count(overdue.meta.total) }), amount(overdueAmount), '/dashboard/invoices?status=to_pay'),
      ),
      h('h2', {}, t('mrrMovementsThisMonth')),
      details(MOVEMENTS.map((m) => [t(`movement_${m}`), amount(overview.month.mrr_movements[m])])),
      h(
        'div',
        { class: 'charts' },
        chart(t('mrrChart'), periods, [{ label: 'MRR', values: mrr.data.map((p) => p.value), colour: COLOURS[0]! }], amount, month),
        chart(
          t('movementsChart'),
          movements.data.map((p) => p.period_start),
          MOVEMENTS.map((m, i) => ({ label: t(`movement_${m}`), values: movements.data.map((p) => p[m] ?? 0), colour: COLOURS[i]! })),
          amount,
          month,
        ),
        chart(
          t('revenueChart'),
          invoiced.data.map((p) => p.period_start),
          [
            { label: t('invoiced'), values: invoiced.data.map((p) => p.value), colour: COLOURS[0]! },
            { label: t('collected'), values: collected.data.map((p) => p.value), colour: COLOURS[1]! },
          ],
          amount,
          month,
        ),
      ),
      h('h2', {}, t('receivablesAgeing')),
      details([
        [t('ageCurrent'), amount(receivables.current)],
        [t('age1to30'), amount(receivables.overdue_1_30)],
        [t('age31to60'), amount(receivables.overdue_31_60)],
        [t('age61to90'), amount(receivables.overdue_61_90)],
        [t('ageOver90'), amount(receivables.overdue_over_90)],
      ]),
      h('h2', {}, t('failedPayments')),
      table(t('failedPayments'), [
        { label: t('invoice'), cell: (m) => { const i = failedInvoice(m.payload.data); return i.id ? link(`/dashboard/invoices/${encodeURIComponent(i.id)}`, i.number ?? i.id) : '—'; } },
        { label: t('due'), cell: (m) => { const i = failedInvoice(m.payload.data); return i.amount_due !== undefined && i.currency ? money(i.amount_due, i.currency) : '—'; }, numeric: true },
        { label: t('attempt'), cell: (m) => String(failedInvoice(m.payload.data).dunning?.attempt ?? '—'), numeric: true },
        { label: t('failedAt'), cell: (m) => dateTime(m.sent_at) },
      ], failed.data, t('noFailedPayments')),
    ];
  });
}
