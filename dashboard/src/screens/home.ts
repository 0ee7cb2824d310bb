import { api, ok } from '../api/client';
import { h } from '../dom';
import { count } from '../format';
import { t } from '../i18n';
import { link, screen } from '../ui';

/**
 * Home: what needs looking at, counted by the API (take=0 answers the total only). The revenue charts (MRR, ARR and
 * their movements) come with the analytics routes (docs/dashboard.md); until those are part of the API this shows
 * the counts.
 */
export function homeScreen(main: HTMLElement) {
  return screen(main, t('home'), async () => {
    const total = async (promise: Promise<{ data?: { meta: { total: number } }; error?: unknown; response: Response }>) => ok(await promise).meta.total;
    const [customers, toPay, overdue, active] = await Promise.all([
      total(api.GET('/v1/customers', { params: { query: { take: 0, status: 'active' } } })),
      total(api.GET('/v1/invoices', { params: { query: { take: 0, status__in: 'open,to_pay,partially_paid' } } })),
      total(api.GET('/v1/invoices', { params: { query: { take: 0, status__in: 'open,to_pay,partially_paid', due_at__lt: new Date().toISOString() } } })),
      total(api.GET('/v2/subscriptions', { params: { query: { take: 0, status: 'active' } } })),
    ]);
    const card = (label: string, value: number, href: string) => h('li', { class: 'card' }, link(href, label), h('p', { class: 'figure' }, count(value)));
    return [
      h('h1', {}, t('home')),
      h(
        'ul',
        { class: 'cards' },
        card(t('activeCustomers'), customers, '/dashboard/customers?status=active'),
        card(t('unpaidInvoices'), toPay, '/dashboard/invoices?status=to_pay'),
        card(t('overdueInvoices'), overdue, '/dashboard/invoices?status=to_pay'),
        card(t('activeSubscriptions'), active, '/dashboard/subscriptions?status=active'),
      ),
      h('p', { class: 'hint' }, t('chartsComing')),
    ];
  });
}
