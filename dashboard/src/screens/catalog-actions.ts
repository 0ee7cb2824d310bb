import { api, ok, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { can } from '../auth';
import { h } from '../dom';
import { t } from '../i18n';
import { actionButton, confirmAction, formDialog, notify, refresh } from '../ui';
import { priceEditor, type PriceType } from './price-editor';

type Product = Schemas['Product'];
type PriceConfiguration = Schemas['PriceConfiguration'];
type Coupon = Schemas['Coupon'];
/** The API's prices of one model; the editor's rows are of the configuration's model, and the API checks them against it. */
/** The `{prices}` form of the PUT body (it also takes Hyperline's bare array). */
type Prices = Extract<NonNullable<paths['/v1/price-configurations/{id}/prices']['put']['requestBody']>['content']['application/json'], { prices: unknown }>['prices'];

/** A product's actions: edit its name and description; archive it (no new sales; what it is on goes on) or unarchive it. */
export function productActions(product: Product): HTMLElement[] {
  if (!can('write')) return [];
  const path = { params: { path: { id: product.id } } };
  const edit = actionButton(t('edit'), () =>
    formDialog({
      title: t('editProduct'),
      submitLabel: t('save'),
      fields: [
        { name: 'name', label: t('name'), required: true, value: product.name },
        { name: 'description', label: t('description'), type: 'textarea', value: product.description ?? '' },
      ],
      async onSubmit(v) {
        ok(await api.PUT('/v1/products/{id}', { ...path, body: { name: v.name!, description: v.description || null } }));
        notify(t('productSaved'));
        await refresh();
      },
    }),
  );
  const archived = product.status === 'archived';
  const toggle = actionButton(archived ? t('unarchive') : t('archive'), () =>
    confirmAction(archived ? t('unarchiveProduct') : t('archiveProduct'), t(archived ? 'unarchiveProductText' : 'archiveProductText', { name: product.name }), archived ? t('unarchive') : t('archive'), async () => {
      ok(await (archived ? api.PUT('/v1/products/{id}/unarchive', path) : api.PUT('/v1/products/{id}/archive', path)));
      notify(archived ? t('productUnarchived') : t('productArchived'));
      await refresh();
    }),
  archived ? {} : { class: 'danger' });
  return [edit, toggle];
}

/** A price configuration's actions: replace its prices (its model stays), archive it (it cannot be undone). */
export function priceConfigurationActions(config: PriceConfiguration, productType: string): HTMLElement | null {
  if (!can('write') || config.status !== 'active') return null;
  const path = { params: { path: { id: config.id } } };
  const editPrices = actionButton(t('editPrices'), () => {
    const editor = priceEditor(productType, { type: config.type as PriceType, currency: config.currency, prices: config.prices as Array<Record<string, unknown>> });
    formDialog({
      title: t('editPrices'),
      intro: t('editPricesText'),
      content: editor.element,
      submitLabel: t('save'),
      fields: [],
      async onSubmit() {
        // What was typed wrong is thrown before anything is sent; the dialog shows it as it shows the API's errors.
        const prices = editor.read(config.currency);
        // The editor's rows are the configuration's own model (it cannot change here); the API checks them against it.
        ok(await api.PUT('/v1/price-configurations/{id}/prices', { ...path, body: { prices: prices as unknown as Prices } }));
        notify(t('pricesSaved'));
        await refresh();
      },
    });
  });
  const archive = actionButton(t('archive'), () =>
    confirmAction(t('archivePriceConfiguration'), t('archivePriceConfigurationText'), t('archive'), async () => {
      ok(await api.PUT('/v1/price-configurations/{id}/archive', path));
      notify(t('priceConfigurationArchived'));
      await refresh();
    }),
  { class: 'danger' });
  return h('div', { class: 'toolbar' }, editPrices, archive);
}

/** A coupon's actions: its name and availability (the discount is fixed once created), and its deletion. */
export function couponActions(coupon: Coupon): HTMLElement | string {
  if (!can('write')) return '—';
  const path = { params: { path: { id: coupon.id } } };
  const edit = actionButton(t('edit'), () =>
    formDialog({
      title: t('editCoupon', { name: coupon.name }),
      intro: t('editCouponText'),
      submitLabel: t('save'),
      fields: [
        { name: 'name', label: t('name'), required: true, value: coupon.name },
        { name: 'redemption_limit', label: t('redemptionLimit'), type: 'number', value: coupon.redemption_limit ? String(coupon.redemption_limit) : '' },
        { name: 'expiration_date', label: t('expires'), type: 'date', value: coupon.expiration_date?.slice(0, 10) ?? '' },
      ],
      async onSubmit(v) {
        ok(await api.PUT('/v1/coupons/{id}', {
          ...path,
          body: { name: v.name!, redemption_limit: v.redemption_limit ? Number(v.redemption_limit) : null, expiration_date: v.expiration_date ? new Date(`${v.expiration_date}T23:59:59Z`).toISOString() : null },
        }));
        notify(t('couponSaved'));
        await refresh();
      },
    }),
  { 'aria-label': t('editCoupon', { name: coupon.name }) });
  const remove = actionButton(t('delete'), () =>
    confirmAction(t('deleteCoupon', { name: coupon.name }), t('deleteCouponText'), t('delete'), async () => {
      ok(await api.DELETE('/v1/coupons/{id}', path));
      notify(t('couponDeleted'));
      await refresh();
    }),
  { class: 'danger', 'aria-label': t('deleteCoupon', { name: coupon.name }) });
  return h('div', { class: 'toolbar' }, edit, remove);
}
