import { api, ok, type Schemas } from '../api/client';
import { can } from '../auth';
import { h, replace } from '../dom';
import { date, money } from '../format';
import { t } from '../i18n';
import { navigate } from '../router';
import { actionButton, badge, confirmAction, details, errorBox, fieldInput, formScreen, filterForm, formDialog, formValues, link, notify, PAGE_SIZE, pager, refresh, screen, table } from '../ui';
import { invoiceColumns } from './customers';

type Subscription = Schemas['Subscription'];
const subscriptionLink = (s: Subscription) => link(`/dashboard/subscriptions/${encodeURIComponent(s.id)}`, s.products.map((p) => p.name).join(', ') || s.id);

export function subscriptionsScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('subscriptions'), async () => {
    const page = ok(
      await api.GET('/v2/subscriptions', {
        params: { query: { status: (query.get('status') || undefined) as Subscription['status'] | undefined, customer_id: query.get('customer_id') || undefined, take: PAGE_SIZE, skip: Number(query.get('skip') ?? 0), sort: '-created_at' } },
      }),
    );
    return [
      h('div', { class: 'title-row' }, h('h1', {}, t('subscriptions')), can('write') ? link('/dashboard/subscriptions/new', t('newSubscription'), { class: 'button primary' }) : null),
      filterForm(
        [
          { name: 'status', label: t('status'), type: 'select', options: [['', t('any')], ...(['pending', 'trialing', 'active', 'paused', 'cancelled'] as const).map((s): [string, string] => [s, s])] },
          { name: 'customer_id', label: t('customerId'), type: 'text' },
        ],
        query,
      ),
      table(t('subscriptions'), [
        { label: t('products'), cell: subscriptionLink },
        { label: t('customer'), cell: (s) => link(`/dashboard/customers/${encodeURIComponent(s.customer_id)}`, s.customer_id) },
        { label: t('status'), cell: (s) => badge(s.status) },
        { label: t('currency'), cell: (s) => s.currency },
      ], page.data, query.size ? t('noMatch') : t('noSubscriptions')),
      pager(page.meta, query),
    ];
  });
}

/** A price of the catalog as the operator picks it: product, price configuration, and what it costs. */
function priceLabel(product: Schemas['Product'], price: Schemas['PriceConfiguration']): string {
  const first = price.prices[0];
  const interval = price.billing_interval.count ? `${price.billing_interval.count} ${price.billing_interval.period}` : price.billing_interval.period;
  const amount = first && 'amount' in first && price.type === 'fee' ? money(first.amount, price.currency) : `${price.type}, ${price.currency}`;
  return `${product.name} — ${amount} / ${interval}`;
}

/** Creates a subscription from the catalog's products and prices; its first invoice is shown once created. */
export function newSubscriptionScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  const load = async (): Promise<Array<[string, string]>> => {
    const products = ok(await api.GET('/v1/products', { params: { query: { status: 'active', take: 100 } } }));
    const prices = ok(await api.GET('/v1/price-configurations', { params: { query: { take: 100 } } }));
    const byId = new Map(products.data.map((p) => [p.id, p]));
    return prices.data
      .filter((p) => p.status === 'active' && byId.has(p.product_id))
      .map((price): [string, string] => [`${price.product_id}|${price.id}`, priceLabel(byId.get(price.product_id)!, price)]);
  };
  return formScreen(main, t('newSubscription'), load, (options, errors) => {
    if (options.length === 0) return h('p', { class: 'empty' }, t('noPrices'));
    const form = h(
      'form',
      { class: 'form' },
      fieldInput({ name: 'customer_id', label: t('customerId'), required: true, value: query.get('customer_id') ?? '' }),
      fieldInput({ name: 'price', label: t('price'), type: 'select', required: true, options }),
      fieldInput({ name: 'quantity', label: t('quantity'), type: 'number', value: '1', required: true }),
      fieldInput({ name: 'starts_at', label: t('startsAt'), type: 'date', hint: t('startsAtHint') }),
      errors,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('createSubscription'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const v = formValues(form);
      const [productId, priceId] = (v.price ?? '|').split('|');
      api
        .POST('/v2/subscriptions', {
          body: {
            customer_id: v.customer_id!, products: [{ product_id: productId!, price_configuration_id: priceId!, quantity: Number(v.quantity) }],
            ...(v.starts_at && { starts_at: new Date(v.starts_at).toISOString() }),
          },
        })
        .then(ok)
        .then((created) => {
          notify(t('subscriptionCreated'));
          return navigate(`/dashboard/subscriptions/${encodeURIComponent(created.id)}`);
        })
        .catch((error: unknown) => replace(errors, errorBox(error)));
    });
    return form;
  });
}

/** A subscription, its invoices (the first one included), and pause, resume, cancel. */
export function subscriptionScreen(main: HTMLElement, params: Record<string, string>) {
  const id = params.id!;
  const path = { path: { id } };
  return screen(main, t('subscription'), async () => {
    const subscription = ok(await api.GET('/v2/subscriptions/{id}', { params: path }));
    const invoices = ok(await api.GET('/v1/invoices', { params: { query: { subscription_id: id, take: 20, sort: '-created_at' } } }));
    const actions: Array<HTMLElement | null> = [];
    if (can('write') && ['active', 'trialing'].includes(subscription.status)) {
      actions.push(actionButton(t('pause'), () =>
        confirmAction(t('pause'), t('pauseText'), t('pause'), async () => {
          ok(await api.POST('/v1/subscriptions/{id}/pause', { params: path, body: {} }));
          notify(t('subscriptionPaused'));
          await refresh();
        }),
      ));
    }
    if (can('write') && subscription.status === 'paused') {
      actions.push(actionButton(t('resume'), () =>
        confirmAction(t('resume'), t('resumeText'), t('resume'), async () => {
          ok(await api.POST('/v1/subscriptions/{id}/resume', { params: path, body: {} }));
          notify(t('subscriptionResumed'));
          await refresh();
        }),
      ));
    }
    if (can('write') && subscription.status !== 'cancelled') {
      actions.push(actionButton(t('cancelSubscription'), () =>
        formDialog({
          title: t('cancelSubscription'),
          intro: t('cancelText'),
          submitLabel: t('cancelSubscription'),
          danger: true,
          fields: [{ name: 'mode', label: t('when'), type: 'select', options: [['end_of_period', t('endOfPeriod')], ['immediately', t('immediately')]] }],
          onSubmit: async (v) => {
            ok(await api.POST('/v1/subscriptions/{id}/cancel', { params: path, body: { mode: v.mode as 'end_of_period' } }));
            notify(t('subscriptionCancelled'));
            await refresh();
          },
        }),
      { class: 'danger' }));
    }
    return [
      h('div', { class: 'title-row' }, h('h1', {}, t('subscription')), badge(subscription.status)),
      h('div', { class: 'toolbar' }, actions),
      details([
        [t('customer'), link(`/dashboard/customers/${encodeURIComponent(subscription.customer_id)}`, subscription.customer_id)],
        [t('products'), subscription.products.map((p) => `${p.name} × ${p.quantity}`).join(', ')],
        [t('currency'), subscription.currency],
        [t('periodEnds'), date(subscription.current_period_ends_at)],
        ['id', h('code', {}, subscription.id)],
      ]),
      h('h2', {}, t('invoices')),
      table(t('invoices'), invoiceColumns(), invoices.data, t('noInvoices')),
    ];
  });
}
