import { makeCtx } from '../../shared/context';
import { newCustomerItem, toCustomer } from '../../shared/domain/customers/customer';
import { applyCustomerInput } from '../../shared/domain/customers/input';

const ctx = makeCtx('ws_unit', 'req');
const blank = () => ({ ...newCustomerItem(ctx, 'cus_1', '2026-01-01T00:00:00.000Z'), name: 'A', invoicing_entity_id: 'ive_1' });
const now = '2026-02-01T00:00:00.000Z';

describe('applyCustomerInput', () => {
  it('keeps omitted members and clears those given as null', () => {
    const start = applyCustomerInput(blank(), { external_id: 'x', language: 'fr' }, now);
    const next = applyCustomerInput(start, { external_id: null }, now);
    expect(next.external_id).toBeNull();
    expect(next.language).toBe('fr');
    expect(next.updated_at).toBe(now);
  });

  it('maps country onto the billing address without losing its other members', () => {
    const start = applyCustomerInput(blank(), { billing_address: { city: 'Paris', line1: '1 rue' } }, now);
    const next = applyCustomerInput(start, { country: 'FR' }, now);
    expect(next.billing_address).toMatchObject({ city: 'Paris', line1: '1 rue', country: 'FR' });
    expect(toCustomer(next).country).toBe('FR');
  });

  it('maps vat_number onto tax_ids, and null onto no tax id', () => {
    const withVat = applyCustomerInput(blank(), { vat_number: 'FR1' }, now);
    expect(withVat.tax_ids).toEqual([{ value: 'FR1', status: 'unverified' }]);
    expect(applyCustomerInput(withVat, { vat_number: null }, now).tax_ids).toEqual([]);
  });

  it('keeps the status of an unchanged tax id', () => {
    const verified = { ...blank(), tax_ids: [{ value: 'FR1', status: 'valid' }] };
    expect(applyCustomerInput(verified, { tax_ids: [{ value: 'FR1' }] }, now).tax_ids).toEqual([{ value: 'FR1', status: 'valid' }]);
    expect(toCustomer(verified).vat_number_valid).toBe(true);
  });

  it('prefers the replacement member when both are given', () => {
    const next = applyCustomerInput(blank(), { vat_number: 'OLD', tax_ids: [{ value: 'NEW' }], vat_rate_custom: 5, tax_rate_custom: 10 }, now);
    expect(next.tax_ids[0]!.value).toBe('NEW');
    expect(next.tax_rate_custom).toBe(10);
  });

  it('renames payment_method_type and payment_method_id', () => {
    const next = applyCustomerInput(blank(), { payment_method_type: 'card', payment_method_id: 'pm_1' }, now);
    expect(next.current_payment_method_type).toBe('card');
    expect(next.current_payment_method_id).toBe('pm_1');
    expect(next).not.toHaveProperty('payment_method_type');
  });

  it('sets billing_email_status back to ok when billing_email changes, and only then', () => {
    const bounced = { ...blank(), billing_email: 'ap@buyer.test', billing_email_status: 'bounced' as const };
    expect(applyCustomerInput(bounced, { name: 'B' }, now).billing_email_status).toBe('bounced');
    expect(applyCustomerInput(bounced, { billing_email: 'ap@buyer.test' }, now).billing_email_status).toBe('bounced');
    expect(applyCustomerInput(bounced, { billing_email: 'new@buyer.test' }, now).billing_email_status).toBe('ok');
    expect(applyCustomerInput(bounced, { billing_email: null }, now).billing_email_status).toBe('ok');
    const { billing_email_status: _absent, ...older } = blank();
    expect(toCustomer(older).billing_email_status).toBe('ok');
  });

  it('does not expose storage attributes', () => {
    const out = toCustomer(blank());
    for (const internal of ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'lf', '_type', '_version', 'currency_locks']) expect(out).not.toHaveProperty(internal);
  });
});
