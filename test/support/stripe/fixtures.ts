import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Stripe from 'stripe';

/**
 * Stripe's own example of every API resource (`../shared/stripe/fixtures3.json` beside the repository: MIT, from
 * Stripe's OpenAPI repository). The stand-in starts each answer from the fixture of its resource, so every object it
 * returns has Stripe's real shape; CI keeps a copy of shared/ beside the repository.
 */
export const STRIPE_FIXTURES_PATH = process.env.STRIPE_FIXTURES_PATH || fileURLToPath(new URL('../../../../shared/stripe/fixtures3.json', import.meta.url));

/** Whether the fixtures are there: Stripe tests skip, with a notice, where they are not. */
export const stripeFixturesAvailable = existsSync(STRIPE_FIXTURES_PATH);

/** The resources the stand-in answers with, typed as the SDK types them. */
export interface StripeFixtures {
  account: Stripe.Account;
  balance: Stripe.Balance;
  balance_transaction: Stripe.BalanceTransaction;
  charge: Stripe.Charge;
  customer: Stripe.Customer;
  dispute: Stripe.Dispute;
  event: Stripe.Event;
  payment_intent: Stripe.PaymentIntent;
  payment_method: Stripe.PaymentMethod;
  refund: Stripe.Refund;
  setup_intent: Stripe.SetupIntent;
}

let loaded: StripeFixtures | undefined;

/** A fresh copy of the fixture of `resource` (callers set the members the request decides). */
export function fixture<K extends keyof StripeFixtures>(resource: K): StripeFixtures[K] {
  loaded ??= (JSON.parse(readFileSync(STRIPE_FIXTURES_PATH, 'utf8')) as { resources: StripeFixtures }).resources;
  const found = loaded[resource];
  if (!found) throw new Error(`fixtures3.json has no ${resource}`);
  return structuredClone(found);
}

/**
 * `describe`, or `describe.skip` with a printed notice when the fixtures are missing (a checkout without shared/
 * beside it): the Stripe tests need Stripe's own objects and fake none.
 */
export function describeWithStripeFixtures(name: string, body: () => void): void {
  if (!stripeFixturesAvailable) console.warn(`${name}: skipped, Stripe's fixtures are not at ${STRIPE_FIXTURES_PATH} (copy shared/stripe/ beside the repository).`);
  (stripeFixturesAvailable ? describe : describe.skip)(name, body);
}
