import { api, ok, type Schemas } from '../api/client';
import { can } from '../auth';
import { h, replace } from '../dom';
import type { paths } from '../api/schema';
import { count, date, money } from '../format';
import { t } from '../i18n';
import { navigate } from '../router';
import { customerUsage } from './usage';
import { actionButton, badge, details, errorBox, fieldInput, formScreen, filterForm, formValues, link, notify, PAGE_SIZE, pager, screen, table, confirmAction, refresh } from '../ui';

type Customer = Schemas['Customer'];
type CustomerBody = NonNullable<paths['/v1/customers']['post']['requestBody']>['content']['application/json'];
const customerLink = (c: { id: string; name: string }) => link(`/dashboard/customers/${encodeURIComponent(c.id)}`, c.name);

/** Customers: the API's search (part of the name, billing email or external id) and status filter, paged. */
export function customersScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('customers'), async () => {
    const status = query.get('status') as 'active' | 'archived' | null;
    const page = ok(
      await api.GET('/v1/customers', {
        params: { query: { search: query.get('search') || undefined, status: status || undefined, take: PAGE_SIZE, skip: Number(query.get('skip') ?? 0), sort: '-created_at' } },
      }),
    );
    return [
      h('div', { class: 'title-row' }, h('h1', {}, t('customers')), can('write') ? link('/dashboard/customers/new', t('newCustomer'), { class: 'button primary' }) : null),
      filterForm(
        [
          { name: 'search', label: t('searchCustomers'), type: 'text', hint: t('searchCustomersHint') },
          { name: 'status', label: t('status'), type: 'select', options: [['', t('any')], ['active', 'active'], ['archived', 'archived']] },
        ],
        query,
        'searchCustomers',
      ),
      table<Customer>(
        t('customers'),
        [
          { label: t('name'), cell: customerLink },
          { label: t('email'), cell: (c) => c.billing_email ?? '—' },
          { label: t('externalId'), cell: (c) => c.external_id ?? '—' },
          { label: t('status'), cell: (c) => badge(c.status) },
          { label: t('created'), cell: (c) => date(c.created_at) },
        ],
        page.data,
        query.size ? t('noMatch') : t('noCustomers'),
      ),
      pager(page.meta, query),
    ];
  });
}

/** A customer with what hangs on it: subscriptions, invoices, wallets and credits, payment methods; its actions. */
export function customerScreen(main: HTMLElement, params: Record<string, string>) {
  const id = params.id!;
  return screen(main, t('customer'), async () => {
    const path = { path: { id } };
    const customer = ok(await api.GET('/v1/customers/{id}', { params: path }));
    const [subscriptions, invoices, wallets, credits, methods] = await Promise.all([
      api.GET('/v2/subscriptions', { params: { query: { customer_id: id, take: 20, sort: '-created_at' } } }).then(ok),
      api.GET('/v1/invoices', { params: { query: { customer_id: id, take: 10, sort: '-created_at' } } }).then(ok),
      api.GET('/v1/wallets', { params: { query: { customer_id: id, take: 20 } } }).then(ok),
      api.GET('/v1/customers/{id}/credits', { params: path }).then(ok),
      api.GET('/v1/customers/{id}/payment-methods', { params: path }).then(ok),
    ]);
    const portalResult = h('div', { 'aria-live': 'polite' });
    const openPortal = async () => {
      try {
        const session = ok(await api.POST('/v1/customers/{id}/portal-sessions', { params: path, body: {} }));
        replace(portalResult, h('p', {}, t('portalLink'), ' ', h('a', { href: session.url, target: '_blank', rel: 'noopener' }, session.url)));
      } catch (error) {
        replace(portalResult, errorBox(error));
      }
    };
    const archive = () =>
      confirmAction(t('archiveCustomer'), t('archiveCustomerText', { name: customer.name }), t('archive'), async () => {
        ok(await api.PUT('/v1/customers/{id}/archive', { params: path }));
        notify(t('customerArchived'));
        await refresh();
      });
    return [
      h('div', { class: 'title-row' }, h('h1', {}, customer.name), badge(customer.status)),
      can('write')
        ? h(
            'div',
            { class: 'toolbar' },
            link(`/dashboard/customers/${encodeURIComponent(id)}/edit`, t('edit'), { class: 'button' }),
            link(`/dashboard/subscriptions/new?customer_id=${encodeURIComponent(id)}`, t('newSubscription'), { class: 'button' }),
            actionButton(t('portalLinkCreate'), () => void openPortal()),
            customer.status === 'active' ? actionButton(t('archive'), archive, { class: 'danger' }) : null,
          )
        : null,
      portalResult,
      details([
        [t('email'), customer.billing_email],
        [t('externalId'), customer.external_id],
        [t('currency'), customer.currency],
        [t('country'), customer.billing_address?.country ?? customer.country],
        [t('language'), customer.language],
        [t('created'), date(customer.created_at)],
        ['id', h('code', {}, customer.id)],
      ]),
      h('h2', {}, t('subscriptions')),
      table(t('subscriptions'), [
        { label: 'id', cell: (s) => link(`/dashboard/subscriptions/${encodeURIComponent(s.id)}`, s.id) },
        { label: t('products'), cell: (s) => s.products.map((p) => p.name).join(', ') },
        { label: t('status'), cell: (s) => badge(s.status) },
      ], subscriptions.data, t('noSubscriptions')),
      h('h2', {}, t('usageLast30Days')),
      ...(await customerUsage(id, subscriptions.data)),
      h('h2', {}, t('invoices')),
      table(t('invoices'), invoiceColumns(), invoices.data, t('noInvoices')),
      invoices.meta.total > invoices.data.length ? link(`/dashboard/invoices?customer_id=${encodeURIComponent(id)}`, t('allInvoices')) : null,
      h('h2', {}, t('balances')),
      table(t('wallets'), [
        { label: t('wallet'), cell: (w) => w.id },
        { label: t('balance'), cell: (w) => money(w.balance.amount, w.currency), numeric: true },
      ], wallets.data, t('noWallets')),
      table(t('credits'), [
        { label: t('product'), cell: (c) => c.name },
        { label: t('balance'), cell: (c) => count(c.current_balance), numeric: true },
      ], credits.data, t('noCredits')),
      h('h2', {}, t('paymentMethods')),
      table(t('paymentMethods'), [
        { label: t('type'), cell: (m) => m.type },
        { label: t('details'), cell: (m) => (m.card ? `${m.card.brand} •••• ${m.card.last4}` : m.type) },
        { label: t('provider'), cell: (m) => m.provider },
      ], methods.data, t('noPaymentMethods')),
    ];
  });
}

export function invoiceColumns() {
  return [
    { label: t('number'), cell: (i: Schemas['Invoice']) => link(`/dashboard/invoices/${encodeURIComponent(i.id)}`, i.number ?? t('draft')) },
    { label: t('customer'), cell: (i: Schemas['Invoice']) => i.customer.name },
    { label: t('status'), cell: (i: Schemas['Invoice']) => badge(i.status) },
    { label: t('issued'), cell: (i: Schemas['Invoice']) => date(i.emitted_at) },
    { label: t('total'), cell: (i: Schemas['Invoice']) => money(i.total_amount, i.currency), numeric: true },
    { label: t('due'), cell: (i: Schemas['Invoice']) => money(i.amount_due, i.currency), numeric: true },
  ];
}

/** Create or edit a customer: the API checks every field and its message is shown as it is. */
export function customerFormScreen(main: HTMLElement, params: Record<string, string>) {
  const editing = params.id;
  const title = editing ? t('editCustomer') : t('newCustomer');
  const load = async () => (editing ? ok(await api.GET('/v1/customers/{id}', { params: { path: { id: editing } } })) : undefined);
  return formScreen(main, title, load, (current, errors) => {
    const form = h(
      'form',
      { class: 'form' },
      fieldInput({ name: 'name', label: t('name'), required: true, value: current?.name }),
      fieldInput({ name: 'billing_email', label: t('email'), type: 'email', value: current?.billing_email ?? '' }),
      fieldInput({ name: 'external_id', label: t('externalId'), value: current?.external_id ?? '' }),
      fieldInput({ name: 'currency', label: t('currency'), value: current?.currency ?? '', hint: t('currencyHint') }),
      fieldInput({ name: 'language', label: t('language'), type: 'select', value: current?.language ?? '', options: [['', '—'], ['en', 'English'], ['fr', 'Français'], ['de', 'Deutsch'], ['es', 'Español'], ['it', 'Italiano'], ['nl', 'Nederlands'], ['pl', 'Polski'], ['pt', 'Português']] }),
      errors,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('save')), link(editing ? `/dashboard/customers/${encodeURIComponent(editing)}` : '/dashboard/customers', t('cancel'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const v = formValues(form);
      const body = { name: v.name!, billing_email: v.billing_email || null, external_id: v.external_id || null, currency: (v.currency?.toUpperCase() || null) as CustomerBody['currency'], language: (v.language || null) as CustomerBody['language'] };
      const save = editing ? api.PUT('/v1/customers/{id}', { params: { path: { id: editing } }, body }) : api.POST('/v1/customers', { body });
      save
        .then(ok)
        .then((saved) => {
          notify(t('customerSaved'));
          return navigate(`/dashboard/customers/${encodeURIComponent(saved.id)}`);
        })
        .catch((error: unknown) => replace(errors, errorBox(error)));
    });
    return form;
  });
}
