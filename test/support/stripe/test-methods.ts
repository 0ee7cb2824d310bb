import type Stripe from 'stripe';
import { fixture } from './fixtures';

/** What confirming a PaymentIntent with a method does (shared/stripe/README.md's table of Stripe's test methods). */
export type Outcome =
  | { kind: 'succeed' }
  | { kind: 'decline'; declineCode: 'generic_decline' | 'insufficient_funds'; message: string }
  | { kind: 'authenticate' }
  | { kind: 'process' }
  | { kind: 'dispute' };

export type TestMethod =
  | { type: 'card'; card: { brand: string; last4: string }; outcome: Outcome }
  | { type: 'sepa_debit'; sepa_debit: { bank_code: string; country: string; last4: string }; outcome: Outcome };

const card = (brand: string, last4: string, outcome: Outcome = { kind: 'succeed' }): TestMethod => ({ type: 'card', card: { brand, last4 }, outcome });

/** Stripe's test PaymentMethod ids the stand-in honours; attaching one makes a new `pm_…` of that behaviour. */
export const TEST_METHODS: Record<string, TestMethod> = {
  pm_card_visa: card('visa', '4242'),
  pm_card_mastercard: card('mastercard', '4444'),
  pm_card_chargeDeclined: card('visa', '0002', { kind: 'decline', declineCode: 'generic_decline', message: 'Your card was declined.' }),
  pm_card_chargeDeclinedInsufficientFunds: card('visa', '9995', { kind: 'decline', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' }),
  pm_card_authenticationRequired: card('visa', '3184', { kind: 'authenticate' }),
  pm_card_chargeDisputed: card('visa', '0259', { kind: 'dispute' }),
  // DE89 3704 0044 0532 0130 00, Stripe's test IBAN whose debits succeed after processing.
  pm_sepaDebit: { type: 'sepa_debit', sepa_debit: { bank_code: '37040044', country: 'DE', last4: '3000' }, outcome: { kind: 'process' } },
};

/** The PaymentMethod object of a test method: Stripe's fixture, with the members the method decides. */
export function paymentMethodObject(id: string, method: TestMethod, at: { created: number; livemode: boolean }): Stripe.PaymentMethod {
  const base = fixture('payment_method');
  const object: Stripe.PaymentMethod = { ...base, id, created: at.created, livemode: at.livemode, customer: null, metadata: {}, type: method.type };
  if (method.type === 'card') {
    // Cards of Stripe's test numbers expire whenever the test says; Stripe's own objects show a date a few years on.
    object.card = { ...base.card!, brand: method.card.brand, display_brand: method.card.brand, last4: method.card.last4, exp_month: 12, exp_year: new Date(at.created * 1000).getUTCFullYear() + 3 };
  } else {
    delete object.card;
    object.sepa_debit = { ...method.sepa_debit, branch_code: null, fingerprint: 'd7sQz9bXy1fbH5Gw', generated_from: null };
  }
  return object;
}
