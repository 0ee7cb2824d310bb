import { makeCtx } from '../../shared/context';
import { mapChange } from '../../shared/domain/events/map-change';
import { paymentMethodKey, toPaymentMethod, type PaymentMethodItem } from '../../shared/domain/payment-methods/payment-method';

const ctx = makeCtx('ws_map', 'req');
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-01T11:00:00.000Z';
const method = (over: Partial<PaymentMethodItem> = {}): PaymentMethodItem => ({
  ...paymentMethodKey(ctx, 'pm_1'),
  gsi3pk: 'WS#ws_map#LIST#PM#customer_id=cus_1',
  gsi3sk: `${t0}#pm_1`,
  _type: 'payment_method',
  _version: 0,
  id: 'pm_1',
  customer_id: 'cus_1',
  type: 'card',
  provider: 'sandbox',
  provider_reference: 'sbx_visa_01JNQ0000000000000000000000',
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2029 },
  currency: 'EUR',
  created_as_default: true,
  created_at: t0,
  updated_at: t0,
  deleted_at: null,
  ...over,
});
const deleted = () => {
  const { gsi3pk: _p, gsi3sk: _s, ...rest } = method({ deleted_at: t1, updated_at: t1, _version: 1 });
  return rest as PaymentMethodItem;
};

describe('mapChange: payment methods', () => {
  it("maps an insert to payment_method.created and Hyperline's payment_method.activated with the public method, is_default as it was saved", () => {
    const data = toPaymentMethod(method(), 'pm_1');
    expect(mapChange(undefined, method() as never)).toEqual([{ type: 'payment_method.created', data }, { type: 'payment_method.activated', data }]);
    expect(mapChange(undefined, method() as never)[0]!.data).toMatchObject({ is_default: true });
    expect(mapChange(undefined, method({ created_as_default: false }) as never)[0]!.data).toMatchObject({ is_default: false });
  });

  it('never puts the provider reference, the currency or storage attributes in the data', () => {
    const data = mapChange(undefined, method() as never)[0]!.data;
    for (const member of ['pk', 'sk', 'gsi3pk', '_version', 'provider_reference', 'currency', 'created_as_default']) expect(data).not.toHaveProperty(member);
    expect(Object.keys(data)).toEqual(['id', 'customer_id', 'type', 'provider', 'card', 'sepa_debit', 'is_default', 'status', 'last_4_digits', 'expiration_date', 'brand', 'created_at', 'updated_at', 'deleted_at']);
  });

  it('maps the soft delete to payment_method.deleted (no longer default)', () => {
    expect(mapChange(method() as never, deleted() as never)).toEqual([{ type: 'payment_method.deleted', data: { ...toPaymentMethod(deleted(), null), is_default: false } }]);
    expect((mapChange(method() as never, deleted() as never)[0]!.data as { deleted_at: string }).deleted_at).toBe(t1);
  });

  it('emits nothing for other changes, a change of a deleted method or a hard delete', () => {
    expect(mapChange(method() as never, method({ _version: 2, updated_at: t1 }) as never)).toEqual([]);
    expect(mapChange(deleted() as never, { ...deleted(), _version: 2 } as never)).toEqual([]);
    expect(mapChange(method() as never, undefined)).toEqual([]);
  });

  it('maps a card\'s expiry notice to payment_method.expiring once per expiry, is_default as it was then', () => {
    const notice = (expiration_date: string, was_default: boolean) => ({ expiration_date, notified_at: t1, was_default });
    const noticed = method({ expiry_notice: notice('2029-12', false), _version: 1, updated_at: t1 });
    expect(mapChange(method() as never, noticed as never)).toEqual([{ type: 'payment_method.expiring', data: toPaymentMethod(noticed, null) }]);
    expect(mapChange(method() as never, method({ expiry_notice: notice('2029-12', true) }) as never)[0]!.data).toMatchObject({ is_default: true });
    // The same notice written again tells nothing; a renewed card's new expiry is told again.
    expect(mapChange(noticed as never, { ...noticed, _version: 2 } as never)).toEqual([]);
    const renewed = method({ card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2032 }, expiry_notice: notice('2032-12', false), _version: 3 });
    expect(mapChange(noticed as never, renewed as never).map((e) => e.type)).toEqual(['payment_method.expiring']);
  });
});
