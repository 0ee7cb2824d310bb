import { createHash } from 'node:crypto';
import { clock, type Clock } from '../../clock';
import { ulid } from '../../ids';
import { paymentMethodInvalid } from './errors';
import type { CardDetails, ChargeResult, PaymentProvider } from './provider';

/**
 * The sandbox's test tokens (decisions.md, "Invoices"), with the card each stands for, like Stripe's test cards:
 * the outcome of every later charge is decided by the token the method was saved from.
 */
const TOKENS = {
  tok_visa: { kind: 'visa', last4: '4242', outcome: null },
  tok_chargeDeclined: { kind: 'chargeDeclined', last4: '0002', outcome: { errorType: 'payment_method_declined', message: 'Your card was declined.' } },
  tok_insufficientFunds: { kind: 'insufficientFunds', last4: '9995', outcome: { errorType: 'declined', message: 'Your card has insufficient funds.' } },
} as const;

type Behaviour = (typeof TOKENS)[keyof typeof TOKENS];
const BY_KIND = new Map<string, Behaviour>(Object.values(TOKENS).map((b) => [b.kind, b]));

/** `sbx_<kind>_<ULID>`: the kind carries the behaviour, so charges need no stored state of the sandbox. */
const REFERENCE = /^sbx_([A-Za-z]+)_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The sandbox's charge id: derived from the idempotency key only, so a retried charge gives the same id. */
export const sandboxChargeId = (idempotencyKey: string): string => `sbx_ch_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;

/**
 * The built-in provider: no network, no state, deterministic. `tok_visa` charges succeed, `tok_chargeDeclined`
 * fails with `payment_method_declined`, `tok_insufficientFunds` with `declined`; any other token is refused at
 * attach (422 `payment_method_invalid`). Cards expire in December, three years after the year they were saved.
 */
export function createSandboxProvider(at: Clock = clock): PaymentProvider {
  return {
    name: 'sandbox',
    async attach(token) {
      const behaviour = Object.hasOwn(TOKENS, token) ? TOKENS[token as keyof typeof TOKENS] : undefined;
      if (!behaviour) {
        throw paymentMethodInvalid(`The sandbox provider does not know the token '${token}'; use one of ${Object.keys(TOKENS).join(', ')}.`);
      }
      const card: CardDetails = { brand: 'visa', last4: behaviour.last4, exp_month: 12, exp_year: at.now().getUTCFullYear() + 3 };
      return { reference: `sbx_${behaviour.kind}_${ulid(at.now().getTime())}`, type: 'card', card, sepa_debit: null };
    },
    async charge({ reference, amount, currency, idempotencyKey }): Promise<ChargeResult> {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`A charge amount is a positive integer of minor units, not ${amount}.`);
      if (!/^[A-Z]{3}$/.test(currency)) throw new RangeError(`A charge currency is an ISO 4217 code, not '${currency}'.`);
      if (!idempotencyKey) throw new RangeError('A charge needs an idempotency key.');
      const providerId = sandboxChargeId(idempotencyKey);
      const behaviour = BY_KIND.get(REFERENCE.exec(reference)?.[1] ?? '');
      if (!behaviour) return { status: 'failed', providerId, errorType: 'payment_method_invalid', message: 'The sandbox provider does not know this payment method.' };
      if (behaviour.outcome) return { status: 'failed', providerId, ...behaviour.outcome };
      return { status: 'succeeded', providerId };
    },
  };
}

export const sandboxProvider: PaymentProvider = createSandboxProvider();
