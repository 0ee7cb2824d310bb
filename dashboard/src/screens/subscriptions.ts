import { api, ok, type Schemas } from '../api/client';
import { can } from '../auth';
import { h, replace } from '../dom';
import { date } from '../format';
import { t } from '../i18n';
import { navigate } from '../router';
import { actionButton, badge, confirmAction, details, errorBox, fieldInput, formScreen, filterForm, formDialog, formValues, link, notify, PAGE_SIZE, pager, refresh, screen, table } from '../ui';
import { invoiceColumns } from './customers';
import { changeProducts } from './subscription-change';
import { firstInvoicePreview, priceOptions, productOf } from './subscription-preview';

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

/**
 * Creates a subscription from the catalog's products and prices in two steps: the form asks the API for the first
 * invoice it would issue (POST /v2/subscriptions/preview, nothing written), then the operator confirms the creation.
 * Editing the form again discards the preview.
 */
export function newSubscriptionScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return formScreen(main, t('newSubscription'), () => priceOptions(), (options, errors) => {
    if (options.length === 0) return h('p', { class: 'empty' }, t('noPrices'));
    const preview = h('div', { 'aria-live': 'polite' });
    const form = h(
      'form',
      { class: 'form' },
      fieldInput({ name: 'customer_id', label: t('customerId'), required: true, value: query.get('customer_id') ?? '' }),
      fieldInput({ name: 'price', label: t('price'), type: 'select', required: true, options }),
      fieldInput({ name: 'quantity', label: t('quantity'), type: 'number', value: '1', required: true }),
      fieldInput({ name: 'starts_at', label: t('startsAt'), type: 'date', hint: t('startsAtHint') }),
      errors,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('previewFirstInvoice'))),
    );
    const body = () => {
      const v = formValues(form);
      return { customer_id: v.customer_id!, products: [productOf(v.price ?? '|', v.quantity ?? '1')], ...(v.starts_at && { starts_at: new Date(v.starts_at).toISOString() }) };
    };
    const create = (sent: ReturnType<typeof body>) =>
      api
        .POST('/v2/subscriptions', { body: sent })
        .then(ok)
        .then((created) => {
          notify(t('subscriptionCreated'));
          return navigate(`/dashboard/subscriptions/${encodeURIComponent(created.id)}`);
        })
        .catch((error: unknown) => replace(errors, errorBox(error)));
    form.addEventListener('input', () => replace(preview));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      replace(errors);
      const sent = body();
      api
        .POST('/v2/subscriptions/preview', { body: sent })
        .then(ok)
        .then((answer) =>
          replace(preview, firstInvoicePreview(answer.first_invoice, answer.currency), h('div', { class: 'actions' }, actionButton(t('createSubscription'), () => void create(sent), { class: 'primary' }))),
        )
        .catch((error: unknown) => replace(errors, errorBox(error)));
    });
    return h('div', {}, form, preview);
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
      actions.push(actionButton(t('changeProducts'), () => void changeProducts(subscription)));
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
