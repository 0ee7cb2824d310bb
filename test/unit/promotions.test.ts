import { clientIdOf } from '../../shared/http/request-context';
import { makeCtx } from '../../shared/context';
import { newCouponItem, toCoupon, type CouponItem } from '../../shared/domain/coupons/coupon';
import { couponShapeErrors } from '../../shared/domain/coupons/input';
import { mapChange } from '../../shared/domain/events/map-change';
import { durationErrors } from '../../shared/domain/promotion-codes/input';
import { codeLookupItem, newPromotionCodeItem, toPromotionCode, type PromotionCodeItem } from '../../shared/domain/promotion-codes/promotion-code';
import { redemptionFailure, type RedemptionContext } from '../../shared/domain/promotion-codes/rules';

const ctx = makeCtx('ws_promo', 'req');
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T11:00:00.000Z';
const coupon = (extra: Partial<CouponItem> = {}): CouponItem => ({ ...newCouponItem(ctx, 'cou_1', t0), name: 'Ten', discount_percent: 10, ...extra });
const promo = (extra: Partial<PromotionCodeItem> = {}): PromotionCodeItem => ({
  ...newPromotionCodeItem(ctx, 'promo_1', t0), code: 'SPRING', coupon_id: 'cou_1', ...extra,
});
const types = (before: object | undefined, after: object | undefined) => mapChange(before as never, after as never).map((e) => e.type);

describe('mapChange: coupons', () => {
  it('maps an insert to coupon.created with the public representation', () => {
    expect(mapChange(undefined, coupon() as never)).toEqual([{ type: 'coupon.created', data: toCoupon(coupon()) }]);
    expect(mapChange(undefined, coupon() as never)[0]!.data).not.toHaveProperty('pk');
  });

  it('maps a visible edit to coupon.updated, a soft delete to coupon.deleted', () => {
    expect(types(coupon(), coupon({ name: 'Renamed', updated_at: t1, _version: 1 }))).toEqual(['coupon.updated']);
    expect(types(coupon(), coupon({ redemption_limit: 3, _version: 1 }))).toEqual(['coupon.updated']);
    const deleted = coupon({ deleted_at: t1, updated_at: t1 });
    expect(mapChange(coupon() as never, deleted as never)).toEqual([{ type: 'coupon.deleted', data: toCoupon(deleted) }]);
  });

  it('emits nothing for a redemption (the counter alone), a hard delete or an unchanged write', () => {
    expect(types(coupon(), coupon({ redemption_count: 1 }))).toEqual([]);
    expect(types(coupon(), undefined)).toEqual([]);
    expect(types(coupon(), coupon({ _version: 4 }))).toEqual([]);
  });
});

describe('mapChange: promotion codes', () => {
  it('maps an insert to promotion_code.created with the public representation', () => {
    expect(mapChange(undefined, promo() as never)).toEqual([{ type: 'promotion_code.created', data: toPromotionCode(promo()) }]);
  });

  it('maps a visible edit to promotion_code.updated, a soft delete to promotion_code.deleted', () => {
    expect(types(promo(), promo({ max_redemptions: 5, updated_at: t1, _version: 1 }))).toEqual(['promotion_code.updated']);
    const deleted = promo({ deleted_at: t1, updated_at: t1 });
    expect(mapChange(promo() as never, deleted as never)).toEqual([{ type: 'promotion_code.deleted', data: toPromotionCode(deleted) }]);
  });

  it('emits nothing for a redemption (current_redemptions alone)', () => {
    expect(types(promo(), promo({ current_redemptions: 1 }))).toEqual([]);
  });

  it('ignores the uniqueness items of codes', () => {
    const lookup = codeLookupItem(ctx, promo());
    expect(lookup).toMatchObject({ pk: 'WS#ws_promo#PROMOCODE#spring', _type: 'promotion_code_lookup', promotion_code_id: 'promo_1' });
    expect(types(undefined, lookup)).toEqual([]);
    expect(types(lookup, undefined)).toEqual([]);
  });
});

describe('coupon shape rules', () => {
  const messages = (input: object) => couponShapeErrors(input as never).map((e) => e.path);
  it.each([
    [{ name: 'X', type: 'amount', discount_amount: 5, currency: 'EUR' }, []],
    [{ name: 'X', type: 'amount', discount_amount: 5 }, ['body.currency']],
    [{ name: 'X', type: 'amount', currency: 'EUR', discount_percent: 5 }, ['body.discount_amount', 'body.discount_percent']],
    [{ name: 'X', type: 'percent', discount_percent: 99.99 }, []],
    [{ name: 'X', type: 'percent', discount_percent: 0.07 }, []],
    [{ name: 'X', type: 'percent', discount_percent: 33.333 }, ['body.discount_percent']],
    [{ name: 'X', type: 'percent', discount_percent: 5, currency: 'EUR' }, ['body.currency']],
    [{ name: 'X', type: 'percent', discount_percent: 5, repeat: 'duration' }, ['body.duration']],
    [{ name: 'X', type: 'percent', discount_percent: 5, repeat: 'forever', duration: { period: 'days', count: 1 } }, ['body.duration']],
    [{ name: 'X', type: 'percent', discount_percent: 5, repeat: 'duration', duration: { period: 'days', count: 1 } }, []],
  ])('%j → %j', (input, expected) => {
    expect(messages(input)).toEqual(expected);
  });
});

describe('promotion code duration rules', () => {
  it.each([
    [{}, []],
    [{ duration_period: 'once' }, []],
    [{ duration_period: 'months', duration_count: 3 }, []],
    [{ duration_period: 'months' }, ['body.duration_count']],
    [{ duration_count: 3 }, ['body.duration_count']],
    [{ duration_period: 'once', duration_count: 1 }, ['body.duration_count']],
  ])('%j → %j', (input, expected) => {
    expect(durationErrors(input as never).map((e) => e.path)).toEqual(expected);
  });
});

describe('redemptionFailure', () => {
  const at = new Date('2026-06-01T00:00:00.000Z');
  const context: RedemptionContext = { customerId: 'cus_1', isFirstOrder: false };
  /** `c` null: the coupon item is missing. */
  const failure = (p: Partial<PromotionCodeItem>, c: Partial<CouponItem> | null = {}, x: Partial<RedemptionContext> = {}) =>
    redemptionFailure(promo(p), c === null ? undefined : coupon(c), { ...context, ...x }, at);

  it('passes a code with no restriction', () => {
    expect(failure({})).toBeNull();
  });

  it.each([
    ['a deleted code', { deleted_at: t0 }, {}, {}, /SPRING' is deleted/],
    ['a missing coupon', {}, null, {}, /coupon .* is deleted/],
    ['a deleted coupon', {}, { deleted_at: t0 }, {}, /coupon .* is deleted/],
    ['an expired code (at its expiry instant)', { expires_at: at.toISOString() }, {}, {}, /expired at 2026-06-01/],
    ['an expired coupon', {}, { expiration_date: '2026-05-31T00:00:00.000Z' }, {}, /coupon .* expired/],
    ['another customer', { customer_id: 'cus_2' }, {}, {}, /another customer/],
    ['another plan', { plan_id: 'plan_a' }, {}, { planId: 'plan_b' }, /plan 'plan_a'/],
    ['no plan', { plan_id: 'plan_a' }, {}, {}, /plan 'plan_a'/],
    ['a missing product', { product_id: 'itm_a' }, {}, { productIds: ['itm_b'] }, /product 'itm_a'/],
    ['no product of the coupon', {}, { product_ids: ['itm_a'] }, { productIds: ['itm_b'] }, /products 'itm_a'/],
    ['a later order', { only_for_first_time_order: true }, {}, {}, /first order/],
    ['the maximum reached', { max_redemptions: 3, current_redemptions: 3 }, {}, {}, /maximum of 3 redemptions/],
    ['the coupon limit reached', {}, { redemption_limit: 1, redemption_count: 1 }, {}, /redemption limit of 1/],
  ])('refuses %s', (_, p, c, x, message) => {
    expect(failure(p as never, c as never, x)).toMatch(message);
  });

  it.each([
    ['before the expiry', { expires_at: '2026-06-01T00:00:00.001Z' }, {}, {}],
    ['its own customer', { customer_id: 'cus_1' }, {}, {}],
    ['its plan', { plan_id: 'plan_a' }, {}, { planId: 'plan_a' }],
    ['its product among others', { product_id: 'itm_a' }, {}, { productIds: ['itm_b', 'itm_a'] }],
    ['one product of the coupon', {}, { product_ids: ['itm_a', 'itm_c'] }, { productIds: ['itm_c'] }],
    ['a first order', { only_for_first_time_order: true }, {}, { isFirstOrder: true }],
    ['one redemption left', { max_redemptions: 3, current_redemptions: 2 }, { redemption_limit: 2, redemption_count: 1 }, {}],
  ])('accepts %s', (_, p, c, x) => {
    expect(failure(p as never, c as never, x)).toBeNull();
  });
});

describe('clientIdOf', () => {
  it('reads the verified claims: client_id, else azp, else null', () => {
    expect(clientIdOf({ client_id: 'cli_1', azp: 'cli_2' })).toBe('cli_1');
    expect(clientIdOf({ azp: 'cli_2' })).toBe('cli_2');
    expect(clientIdOf({ sub: 'someone' })).toBeNull();
    expect(clientIdOf({ client_id: 42 })).toBeNull();
    expect(clientIdOf({ client_id: '' })).toBeNull();
  });
});
