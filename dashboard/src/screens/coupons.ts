import { api, ok, type Schemas } from '../api/client';
import type { paths } from '../api/schema';
import { can } from '../auth';
import { h } from '../dom';
import { date, money, toMinor } from '../format';
import { t } from '../i18n';
import { actionButton, filterForm, formDialog, notify, PAGE_SIZE, pager, refresh, screen, table } from '../ui';
import { catalogTabs, interval } from './catalog';
import { couponActions } from './catalog-actions';

type Coupon = Schemas['Coupon'];
type CouponBody = NonNullable<paths['/v1/coupons']['post']['requestBody']>['content']['application/json'];
type PromotionCode = Schemas['PromotionCode'];

const discount = (c: Coupon) => (c.type === 'percent' ? `${c.discount_percent} %` : money(c.discount_amount ?? 0, c.currency ?? 'EUR'));
const repeat = (c: Coupon) => (c.repeat === 'duration' && c.duration ? `${t('repeat_duration')}: ${interval(c.duration).replace(/^\S+ /, '')}` : t(`repeat_${c.repeat}`));

/** Creates a coupon: an amount (typed in currency units) or a percentage, once, forever or for a duration. */
function newCoupon(): void {
  formDialog({
    title: t('newCoupon'),
    submitLabel: t('createCoupon'),
    fields: [
      { name: 'name', label: t('name'), required: true },
      { name: 'type', label: t('type'), type: 'select', options: [['percent', t('couponPercent')], ['amount', t('couponAmount')]] },
      { name: 'value', label: t('discount'), required: true, inputmode: 'decimal', hint: t('discountHint') },
      { name: 'currency', label: t('currency'), value: 'EUR', hint: t('couponCurrencyHint') },
      { name: 'repeat', label: t('repeat'), type: 'select', options: (['once', 'forever', 'duration'] as const).map((r): [string, string] => [r, t(`repeat_${r}`)]) },
      { name: 'months', label: t('durationMonths'), type: 'number', hint: t('durationMonthsHint') },
    ],
    async onSubmit(v) {
      const currency = (v.currency ?? '').trim().toUpperCase();
      const amount = v.type === 'amount' ? toMinor(v.value ?? '', currency) : undefined;
      if (v.type === 'amount' && amount === undefined) throw new Error(t('invalidAmount', { currency }));
      const body: CouponBody = {
        name: v.name!, type: v.type as Coupon['type'], repeat: v.repeat as Coupon['repeat'],
        ...(v.type === 'amount' ? { discount_amount: amount, currency: currency as CouponBody['currency'] } : { discount_percent: Number((v.value ?? '').replace(',', '.')) }),
        ...(v.repeat === 'duration' && { duration: { period: 'months' as const, count: Number(v.months) } }),
      };
      const coupon = ok(await api.POST('/v1/coupons', { body }));
      notify(t('couponCreated', { name: coupon.name }));
      await refresh();
    },
  });
}

/** Coupons, paged (the API's take/skip), each with what it takes off, how often, and how many times it was used. */
export function couponsScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('coupons'), async () => {
    const page = ok(await api.GET('/v1/coupons', { params: { query: { take: PAGE_SIZE, skip: Number(query.get('skip') ?? 0) } } }));
    return [
      h('div', { class: 'title-row' }, h('h1', {}, t('coupons')), can('write') ? actionButton(t('newCoupon'), newCoupon, { class: 'primary' }) : null),
      catalogTabs(),
      table<Coupon>(t('coupons'), [
        { label: t('name'), cell: (c) => c.name },
        { label: t('discount'), cell: discount, numeric: true },
        { label: t('repeat'), cell: repeat },
        { label: t('redemptions'), cell: (c) => (c.redemption_limit ? `${c.redemption_count} / ${c.redemption_limit}` : String(c.redemption_count)), numeric: true },
        { label: t('expires'), cell: (c) => date(c.expiration_date) },
        { label: 'id', cell: (c) => h('code', {}, c.id) },
        { label: t('actions'), cell: couponActions },
      ], page.data, t('noCoupons')),
      pager(page.meta, query),
    ];
  });
}

/** Creates a promotion code: the code customers type, for one of the coupons. */
function newPromotionCode(coupons: Coupon[]): void {
  formDialog({
    title: t('newPromotionCode'),
    submitLabel: t('createPromotionCode'),
    fields: [
      { name: 'code', label: t('code'), required: true },
      { name: 'coupon_id', label: t('coupon'), type: 'select', required: true, options: coupons.map((c): [string, string] => [c.id, `${c.name} (${discount(c)})`]) },
      { name: 'max_redemptions', label: t('maxRedemptions'), type: 'number' },
      { name: 'expires_at', label: t('expires'), type: 'date' },
      { name: 'only_for_first_time_order', label: t('firstOrderOnly'), type: 'checkbox' },
    ],
    async onSubmit(v) {
      const code = ok(await api.POST('/v1/promotion-codes', {
        body: {
          code: v.code!, coupon_id: v.coupon_id!, only_for_first_time_order: v.only_for_first_time_order === 'yes',
          ...(v.max_redemptions && { max_redemptions: Number(v.max_redemptions) }),
          ...(v.expires_at && { expires_at: new Date(`${v.expires_at}T23:59:59Z`).toISOString() }),
        },
      }));
      notify(t('promotionCodeCreated', { code: code.code }));
      await refresh();
    },
  });
}

/** Promotion codes: the API's filters on code and coupon, paged. */
export function promotionCodesScreen(main: HTMLElement, _params: Record<string, string>, query: URLSearchParams) {
  return screen(main, t('promotionCodes'), async () => {
    const [page, coupons] = await Promise.all([
      api.GET('/v1/promotion-codes', { params: { query: { code: query.get('code') || undefined, coupon_id: query.get('coupon_id') || undefined, take: PAGE_SIZE, skip: Number(query.get('skip') ?? 0), sort: '-created_at' } } }).then(ok),
      api.GET('/v1/coupons', { params: { query: { take: 100 } } }).then(ok),
    ]);
    const couponName = new Map(coupons.data.map((c) => [c.id, c.name]));
    return [
      h('div', { class: 'title-row' }, h('h1', {}, t('promotionCodes')), can('write') && coupons.data.length ? actionButton(t('newPromotionCode'), () => newPromotionCode(coupons.data), { class: 'primary' }) : null),
      catalogTabs(),
      filterForm([{ name: 'code', label: t('code') }, { name: 'coupon_id', label: t('coupon'), type: 'select', options: [['', t('any')], ...coupons.data.map((c): [string, string] => [c.id, c.name])] }], query),
      table<PromotionCode>(t('promotionCodes'), [
        { label: t('code'), cell: (p) => h('code', {}, p.code) },
        { label: t('coupon'), cell: (p) => couponName.get(p.coupon_id) ?? p.coupon_id },
        { label: t('redemptions'), cell: (p) => (p.max_redemptions ? `${p.current_redemptions} / ${p.max_redemptions}` : String(p.current_redemptions)), numeric: true },
        { label: t('expires'), cell: (p) => date(p.expires_at) },
        { label: t('firstOrderOnly'), cell: (p) => (p.only_for_first_time_order ? t('yes') : t('no')) },
      ], page.data, query.size ? t('noMatch') : t('noPromotionCodes')),
      pager(page.meta, query),
    ];
  });
}
