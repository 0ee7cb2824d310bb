import { api, ok, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { can } from '../auth';
import { h, replace } from '../dom';
import { date, money } from '../format';
import { t } from '../i18n';
import { navigate } from '../router';
import { badge, details, errorBox, fieldInput, filterForm, formScreen, formValues, link, notify, PAGE_SIZE, pager, screen, table } from '../ui';
import { priceConfigurationActions, productActions } from './catalog-actions';
import { priceEditor } from './price-editor';

type Product = Schemas['Product'];
type PriceConfiguration = Schemas['PriceConfiguration'];
type Currency = NonNullable<paths['/v1/price-configurations']['post']['requestBody']>['content']['application/json']['currency'];
const productPath = (id: string) => `/dashboard/catalog/products/${encodeURIComponent(id)}`;

/** The catalog's sections: products (with their prices), coupons, promotion codes. */
export const catalogTabs = () =>
  h('nav', { class: 'tabs', 'aria-label': t('catalog') }, h('ul', {}, [
    ['/dashboard/catalog', t('products')],
    ['/dashboard/catalog/coupons', t('coupons')],
    ['/dashboard/catalog/promotion-codes', t('promotionCodes')],
  ].map(([href, label]) => h('li', {}, link(href!, label!, location.pathname === href ? { 'aria-current': 'page' } : {})))));

/** Products: the API's filters on name (part of it) and type, paged. */
export function productsScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('catalog'), async () => {
    const type = (query.get('type') || undefined) as Product['type'] | undefined;
    const page = ok(await api.GET('/v1/products', { params: { query: { name__contains: query.get('name') || undefined, type, take: PAGE_SIZE, skip: Number(query.get('skip') ?? 0), sort: '-created_at' } } }));
    return [
      h('div', { class: 'title-row' }, h('h1', {}, t('catalog')), can('write') ? link('/dashboard/catalog/products/new', t('newProduct'), { class: 'button primary' }) : null),
      catalogTabs(),
      filterForm([
        { name: 'name', label: t('name'), type: 'text' },
        { name: 'type', label: t('type'), type: 'select', options: [['', t('any')], ...(['flat_fee', 'seat', 'dynamic', 'credit'] as const).map((p): [string, string] => [p, t(`productType_${p}`)])] },
      ], query),
      table<Product>(t('products'), [
        { label: t('name'), cell: (p) => link(productPath(p.id), p.name) },
        { label: t('type'), cell: (p) => t(`productType_${p.type}`) },
        { label: t('prices'), cell: (p) => String(p.price_configurations.length), numeric: true },
        { label: t('status'), cell: (p) => badge(p.status) },
        { label: t('created'), cell: (p) => date(p.created_at) },
      ], page.data, query.size ? t('noMatch') : t('noProducts')),
      pager(page.meta, query),
    ];
  });
}

/** `every 3 months`, `once`: a billing interval in the operator's language. */
export const interval = (i: { period: 'once' | 'all' | 'days' | 'weeks' | 'months' | 'years'; count?: number }) =>
  i.period === 'all' ? '—' : i.count ? t('everyInterval', { count: i.count, period: t(`period_${i.period}`).toLowerCase() }) : t(`period_${i.period}`);

/** A price configuration's prices as a table: each tier (or pack) with what it costs. */
function pricesTable(config: PriceConfiguration): HTMLElement {
  const amount = (minor: number | null | undefined) => (minor === null || minor === undefined ? '—' : money(minor, config.currency));
  const rows = config.prices as Array<Record<string, number | string | null | undefined>>;
  const cell = (name: string, kind: 'amount' | 'plain' = 'plain') => (p: Record<string, number | string | null | undefined>) => (kind === 'amount' ? amount(p[name] as number | null | undefined) : p[name] === null || p[name] === undefined ? (name === 'to' ? '∞' : '—') : String(p[name]));
  const columns = {
    fee: [{ label: t('unitAmount'), cell: cell('amount', 'amount'), numeric: true }],
    bundle: [{ label: t('packAmount'), cell: cell('amount', 'amount'), numeric: true }, { label: t('packSize'), cell: cell('pack_size'), numeric: true }],
    bps: [{ label: t('tierFrom'), cell: cell('from'), numeric: true }, { label: t('tierTo'), cell: cell('to'), numeric: true }, { label: t('percentage'), cell: (p: Record<string, unknown>) => `${String(p.percentage)} %`, numeric: true }, { label: t('perUnitFee'), cell: cell('per_unit_fee', 'amount'), numeric: true }],
    tiers: [{ label: t('tierFrom'), cell: cell('from'), numeric: true }, { label: t('tierTo'), cell: cell('to'), numeric: true }, { label: t('tierAmount'), cell: cell('amount', 'amount'), numeric: true }, { label: t('tierUnits'), cell: cell('unit_count'), numeric: true }],
  };
  const chosen = config.type === 'fee' || config.type === 'bundle' || config.type === 'bps' ? columns[config.type] : columns.tiers;
  return table(t('pricesOf', { id: config.id }), chosen, rows, t('noPriceConfigurations'));
}

/** A product with its price configurations (each model with its tiers). */
export function productScreen(main: HTMLElement, params: Record<string, string>) {
  const id = params.id!;
  return screen(main, t('product'), async () => {
    const [product, configs] = await Promise.all([
      api.GET('/v1/products/{id}', { params: { path: { id } } }).then(ok),
      api.GET('/v1/price-configurations', { params: { query: { product_id: id, take: 100 } } }).then(ok),
    ]);
    return [
      h('div', { class: 'title-row' }, h('h1', {}, product.name), can('write') ? link(`${productPath(id)}/prices/new`, t('newPriceConfiguration'), { class: 'button primary' }) : null),
      catalogTabs(),
      h('div', { class: 'toolbar' }, productActions(product)),
      details([[t('type'), t(`productType_${product.type}`)], [t('status'), badge(product.status)], [t('description'), product.description], [t('aggregator'), product.aggregator_id], ['id', h('code', {}, product.id)]]),
      h('h2', {}, t('priceConfigurations')),
      configs.data.length === 0 ? h('p', { class: 'empty' }, t('noPriceConfigurations')) : null,
      ...configs.data.map((config) =>
        h('section', { class: 'price-config', 'aria-labelledby': `pc-${config.id}` },
          h('h3', { id: `pc-${config.id}` }, `${t(`model_${config.type}`)} · ${config.currency} · ${interval(config.billing_interval)}`),
          h('p', {}, badge(config.status), ' ', h('code', {}, config.id)),
          pricesTable(config),
          priceConfigurationActions(config, product.type)),
      ),
    ];
  });
}

/** Creates a product; a `dynamic` or `credit` product may name the aggregator that meters it. */
export function productFormScreen(main: HTMLElement) {
  const load = async () => ok(await api.GET('/v1/aggregators', { params: { query: { take: 100 } } })).data;
  return formScreen(main, t('newProduct'), load, (aggregators, errors) => {
    const form = h(
      'form',
      { class: 'form' },
      fieldInput({ name: 'name', label: t('name'), required: true }),
      fieldInput({ name: 'type', label: t('type'), type: 'select', options: (['flat_fee', 'seat', 'dynamic', 'credit'] as const).map((p): [string, string] => [p, t(`productType_${p}`)]) }),
      fieldInput({ name: 'description', label: t('description'), type: 'textarea' }),
      fieldInput({ name: 'aggregator_id', label: t('aggregator'), type: 'select', hint: t('aggregatorHint'), options: [['', '—'], ...aggregators.map((a): [string, string] => [a.id, a.name])] }),
      errors,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('createProduct')), link('/dashboard/catalog', t('cancel'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const v = formValues(form);
      api
        .POST('/v1/products', { body: { name: v.name!, type: v.type as Product['type'], description: v.description || null, ...(v.aggregator_id && { aggregator_id: v.aggregator_id }) } })
        .then(ok)
        .then((product) => {
          notify(t('productCreated', { name: product.name }));
          return navigate(productPath(product.id));
        })
        .catch((error: unknown) => replace(errors, errorBox(error)));
    });
    return form;
  });
}

/** Creates a price configuration of a product: currency, billing interval, the model its type takes, its tiers. */
export function priceConfigurationFormScreen(main: HTMLElement, params: Record<string, string>) {
  const id = params.id!;
  const load = async () => ok(await api.GET('/v1/products/{id}', { params: { path: { id } } }));
  return formScreen(main, t('newPriceConfiguration'), load, (product, errors) => {
    const editor = priceEditor(product.type);
    const form = h(
      'form',
      { class: 'form' },
      h('p', {}, t('forProduct', { name: product.name })),
      fieldInput({ name: 'currency', label: t('currency'), required: true, value: 'EUR', hint: t('currencyHint') }),
      fieldInput({ name: 'period', label: t('billingInterval'), type: 'select', value: 'months', options: (['once', 'days', 'weeks', 'months', 'years'] as const).map((p): [string, string] => [p, t(`period_${p}`)]) }),
      fieldInput({ name: 'count', label: t('intervalCount'), type: 'number', value: '1', hint: t('intervalCountHint') }),
      editor.element,
      errors,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, t('createPriceConfiguration')), link(productPath(id), t('cancel'))),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const v = formValues(form);
      const currency = (v.currency ?? '').trim().toUpperCase();
      replace(errors);
      let prices: Array<Record<string, number | null>>;
      try {
        prices = editor.read(currency);
      } catch (error) {
        replace(errors, errorBox(error));
        return;
      }
      const billing_interval = v.period === 'once' ? { period: 'once' as const } : { period: v.period as 'days' | 'weeks' | 'months' | 'years', count: Number(v.count || 1) };
      api
        .POST('/v1/price-configurations', { body: { product_id: id, currency: currency as Currency, billing_interval, type: editor.type(), prices } })
        .then(ok)
        .then(() => {
          notify(t('priceConfigurationCreated'));
          return navigate(productPath(id));
        })
        .catch((error: unknown) => replace(errors, errorBox(error)));
    });
    return form;
  });
}
