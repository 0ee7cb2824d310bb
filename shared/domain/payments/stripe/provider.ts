import type Stripe from 'stripe';
import { connectedStripe } from '../../payment-providers/connect';
import { paymentMethodInvalid } from '../errors';
import type { AttachedMethod, PaymentProvider } from '../provider';
import { chargeWithStripe } from './charge';
import { stripeCustomerOf } from './customers';
import { atStripe, isStripeError } from './errors';

/** Stripe's PaymentMethod as a saved method: a card (brand, last 4, expiry) or a SEPA Direct Debit (bank, last 4). */
export function savedMethod(method: Stripe.PaymentMethod, accountId: string): AttachedMethod {
  if (method.type === 'card' && method.card) {
    const { brand, last4, exp_month, exp_year } = method.card;
    return { reference: method.id, accountId, type: 'card', card: { brand, last4, exp_month, exp_year }, sepa_debit: null };
  }
  if (method.type === 'sepa_debit' && method.sepa_debit?.last4) {
    const { bank_code, country, last4 } = method.sepa_debit;
    return { reference: method.id, accountId, type: 'direct_debit', card: null, sepa_debit: { bank_code, country, last4 } };
  }
  throw paymentMethodInvalid(`Stripe payment methods of type '${method.type}' cannot be saved; save a card or a SEPA Direct Debit.`);
}

/**
 * Stripe behind the PaymentProvider seam (docs/payments.md), through the workspace's own account (connected with
 * PUT /v1/payment-providers/stripe): a token is a PaymentMethod id (`pm_…` from Stripe.js, or Stripe's test ids),
 * attached to the customer's Stripe customer (created once); a charge is one PaymentIntent per attempt (charge.ts).
 */
export const stripeProvider: PaymentProvider = {
  name: 'stripe',
  async attach(token, { ctx, customerId }) {
    if (!/^pm_\w+$/.test(token)) throw paymentMethodInvalid(`A Stripe token is a PaymentMethod id (pm_…), not '${token.slice(0, 40)}'.`);
    const { connection, stripe } = await connectedStripe(ctx);
    const customer = await stripeCustomerOf(ctx, stripe, connection, customerId);
    try {
      return savedMethod(await atStripe(() => stripe.paymentMethods.attach(token, { customer })), connection.account_id);
    } catch (error) {
      // Stripe refuses the method (unknown, used elsewhere, declined when checked): the caller's token is wrong.
      if (isStripeError(error, 'StripeInvalidRequestError', 'StripeCardError')) {
        throw paymentMethodInvalid(`Stripe refused the payment method: ${error.message}`);
      }
      throw error;
    }
  },
  charge: chargeWithStripe,
};
