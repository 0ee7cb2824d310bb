import type { Ctx } from '../../context';
import { effectKey } from '../../db/effect-claim';
import { connectedStripe } from '../payment-providers/connect';
import { stripeCustomerOf } from '../payments/stripe/customers';
import { atStripe } from '../payments/stripe/errors';
import { liveCustomer } from './payment-methods';

export interface SetupIntent {
  id: string;
  provider: 'stripe';
  client_secret: string;
  publishable_key: string;
}

/**
 * A Stripe SetupIntent for the customer (its Stripe customer created once), for a merchant's own frontend: Stripe.js
 * confirms it with the client secret and the publishable key, then the PaymentMethod it produced is saved with
 * POST /v1/customers/{id}/payment-methods. The methods are those enabled in the merchant's Stripe dashboard, for
 * charges off session. A retry with the same Idempotency-Key is the same SetupIntent.
 */
export async function createSetupIntent(ctx: Ctx, customerId: string): Promise<SetupIntent> {
  await liveCustomer(ctx, customerId);
  const { connection, stripe } = await connectedStripe(ctx);
  const customer = await stripeCustomerOf(ctx, stripe, connection, customerId);
  const key = effectKey();
  const intent = await atStripe(() =>
    stripe.setupIntents.create(
      { customer, usage: 'off_session', automatic_payment_methods: { enabled: true }, metadata: { workspace_id: ctx.workspaceId, customer_id: customerId } },
      key ? { idempotencyKey: `setup:${key}` } : {},
    ),
  );
  return { id: intent.id, provider: 'stripe', client_secret: intent.client_secret!, publishable_key: connection.publishable_key };
}
