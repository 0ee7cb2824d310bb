import { makeCtx } from '../../shared/context';
import { createSandboxProvider, sandboxChargeId, sandboxProvider } from '../../shared/domain/payments/sandbox';
import { PAYMENT_PROVIDER_NAMES, paymentProvider } from '../../shared/domain/payments/provider';
import { RuleViolation } from '../../shared/errors';

const fixed = { now: () => new Date('2026-03-01T10:00:00.000Z') };
/** The sandbox ignores whose method it is: no account, no customer at the provider. */
const owner = { ctx: makeCtx('ws_sandbox', 'test'), customerId: 'cus_1' };
const sandbox = createSandboxProvider(fixed);
const charge = (reference: string, idempotencyKey = 'inv_1:attempt_1') => sandbox.charge({ reference, amount: 1999, currency: 'EUR', idempotencyKey });

describe('sandbox provider: attach', () => {
  it.each([
    ['tok_visa', '4242'],
    ['tok_chargeDeclined', '0002'],
    ['tok_insufficientFunds', '9995'],
  ])('turns %s into a visa card ending %s with an opaque reference', async (token, last4) => {
    const attached = await sandbox.attach(token, owner);
    expect(attached.card).toEqual({ brand: 'visa', last4, exp_month: 12, exp_year: 2029 });
    expect(attached.reference).toMatch(/^sbx_[A-Za-z]+_[0-9A-Z]{26}$/);
    expect(attached.reference).not.toContain(token);
    expect((await sandbox.attach(token, owner)).reference).not.toBe(attached.reference);
  });

  it.each(['tok_unknown', 'tok_mastercard', '', 'TOK_VISA', 'toString', '__proto__', 'hasOwnProperty'])('refuses %p with a 422 payment_method_invalid', async (token) => {
    const attempt = sandbox.attach(token, owner);
    await expect(attempt).rejects.toBeInstanceOf(RuleViolation);
    await expect(attempt).rejects.toMatchObject({ status: 422, code: 'payment_method_invalid' });
  });
});

describe('sandbox provider: charge', () => {
  it('succeeds for tok_visa and fails for the decline tokens with their error types', async () => {
    const visa = await sandbox.attach('tok_visa', owner);
    const declined = await sandbox.attach('tok_chargeDeclined', owner);
    const poor = await sandbox.attach('tok_insufficientFunds', owner);
    expect(await charge(visa.reference)).toEqual({ status: 'succeeded', providerId: expect.stringMatching(/^sbx_ch_[0-9a-f]{24}$/) });
    expect(await charge(declined.reference)).toEqual({ status: 'failed', providerId: expect.any(String), errorType: 'payment_method_declined', message: expect.any(String) });
    expect(await charge(poor.reference)).toEqual({ status: 'failed', providerId: expect.any(String), errorType: 'declined', message: expect.any(String) });
  });

  it('is deterministic and idempotent per key: the same key gives the same id and outcome, another key another id', async () => {
    const { reference } = await sandbox.attach('tok_visa', owner);
    const [a, b] = await Promise.all([charge(reference, 'key-1'), charge(reference, 'key-1')]);
    expect(a).toEqual(b);
    expect(a.providerId).toBe(sandboxChargeId('key-1'));
    expect((await charge(reference, 'key-2')).providerId).not.toBe(a.providerId);
    const declined = await sandbox.attach('tok_chargeDeclined', owner);
    expect(await charge(declined.reference, 'key-3')).toEqual(await charge(declined.reference, 'key-3'));
  });

  it('answers a reference it never issued with a failed charge, not an exception', async () => {
    for (const reference of ['tok_visa', 'sbx_visa_bad', 'sbx_unknownKind_01HZZZZZZZZZZZZZZZZZZZZZZZ', '']) {
      expect(await charge(reference)).toMatchObject({ status: 'failed', errorType: 'payment_method_invalid' });
    }
  });

  it('refuses amounts that are not positive integers, bad currencies and a missing key (caller errors)', async () => {
    const { reference } = await sandbox.attach('tok_visa', owner);
    for (const amount of [0, -5, 1.5, Number.NaN]) {
      await expect(sandbox.charge({ reference, amount, currency: 'EUR', idempotencyKey: 'k' })).rejects.toBeInstanceOf(RangeError);
    }
    await expect(sandbox.charge({ reference, amount: 100, currency: 'eur', idempotencyKey: 'k' })).rejects.toBeInstanceOf(RangeError);
    await expect(sandbox.charge({ reference, amount: 100, currency: 'EUR', idempotencyKey: '' })).rejects.toBeInstanceOf(RangeError);
  });

  it('a reference from one sandbox instance charges the same in another (no state)', async () => {
    const { reference } = await sandbox.attach('tok_insufficientFunds', owner);
    expect(await sandboxProvider.charge({ reference, amount: 1, currency: 'USD', idempotencyKey: 'x' })).toMatchObject({ status: 'failed', errorType: 'declined' });
  });
});

describe('provider registry', () => {
  it('finds the sandbox and Stripe by name and refuses unknown names with a 422', () => {
    expect(PAYMENT_PROVIDER_NAMES).toEqual(['sandbox', 'stripe']);
    expect(paymentProvider('sandbox').name).toBe('sandbox');
    expect(paymentProvider('stripe').name).toBe('stripe');
    for (const name of ['paypal', 'toString', '']) expect(() => paymentProvider(name)).toThrow(expect.objectContaining({ status: 422, code: 'payment_provider_unknown' }));
  });
});
