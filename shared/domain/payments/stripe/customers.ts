import type Stripe from 'stripe';
import type { Ctx } from '../../../context';
import { tableName } from '../../../db/client';
import { getItem } from '../../../db/items';
import { ConditionFailed, transactWrite } from '../../../db/transactions';
import { customerItemKey } from '../../customers/customer';
import type { ProviderConnectionItem } from '../../payment-providers/connection';
import { atStripe } from './errors';

/**
 * Our customer's customer at Stripe, kept in our customer's partition (`sk` `STRIPE#<acct>`): one per Stripe
 * account the workspace has connected. Apart from the customer item, so it moves neither its version nor its events.
 */
interface StripeCustomerLink {
  pk: string;
  sk: string;
  _type: 'stripe_customer';
  stripe_customer_id: string;
  created_at: string;
}

const linkKey = (ctx: Ctx, customerId: string, accountId: string) => ({ pk: customerItemKey(ctx, customerId).pk, sk: `STRIPE#${accountId}` });

/**
 * The Stripe customer of our customer, created at the first need. Concurrent first needs create one: they ask
 * Stripe with the same idempotency key (derived from the workspace and our customer, and parameters that never
 * change), so Stripe answers all of them with the same customer, and the link is written once (the others find it).
 */
export async function stripeCustomerOf(ctx: Ctx, stripe: Stripe, connection: ProviderConnectionItem, customerId: string): Promise<string> {
  const key = linkKey(ctx, customerId, connection.account_id);
  const known = await getItem<StripeCustomerLink>(key, true);
  if (known) return known.stripe_customer_id;
  const created = await atStripe(() =>
    stripe.customers.create(
      { description: `Billing customer ${customerId}`, metadata: { workspace_id: ctx.workspaceId, customer_id: customerId } },
      { idempotencyKey: `customer:${ctx.workspaceId}:${customerId}` },
    ),
  );
  const link: StripeCustomerLink = { ...key, _type: 'stripe_customer', stripe_customer_id: created.id, created_at: ctx.clock.now().toISOString() };
  try {
    await transactWrite([{ Put: { TableName: tableName(), Item: link, ConditionExpression: 'attribute_not_exists(pk)' } }]);
    return created.id;
  } catch (error) {
    // Written meanwhile by a concurrent save: the same customer, unless Stripe's key had expired (after 24 h).
    if (!(error instanceof ConditionFailed)) throw error;
    return (await getItem<StripeCustomerLink>(key, true))!.stripe_customer_id;
  }
}
