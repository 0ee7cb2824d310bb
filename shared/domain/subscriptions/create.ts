import type { Ctx } from '../../context';
import { transactWrite } from '../../db/transactions';
import { retryOnRace } from '../../db/items';
import { RuleViolation } from '../../errors';
import { redemptionsFor } from '../invoices/coupons';
import { isFirstOrderForCode } from '../invoices/read';
import { findCustomerItem } from '../customers/read';
import { prepareSubscription, type SubscriptionProductInput } from './prepare';
import { getSubscription } from './read';
import type { Subscription } from './subscription';
import type { CollectionMethod } from '../collection/settings';

export interface CreateSubscriptionInput {
  customer_id: string;
  products: SubscriptionProductInput[];
  /** Default: now. */
  starts_at?: string;
  trial_ends_at?: string | null;
  invoicing_entity_id?: string;
  /** Coupons (ids) and a promotion code, redeemed now, applied to its invoices as long as each lasts. */
  coupon_ids?: string[];
  promotion_code?: string;
  /** Null (default): the customer's (docs/collection.md). */
  collection_method?: CollectionMethod | null;
}

/**
 * `POST /v2/subscriptions`: the subscription a signed quote would start, made by the same function
 * (`prepareSubscription`), so both paths give the same subscription; the coupons and promotion code are redeemed in
 * the same transaction (as a signature redeems its quote's code). Answers as `GET /v2/subscriptions/{id}`.
 */
export async function createSubscription(ctx: Ctx, input: CreateSubscriptionInput): Promise<Subscription> {
  const id = await retryOnRace(async () => {
    const coupons = await redemptionsOf(ctx, input);
    const { subscription, items } = await prepareSubscription(ctx, {
      customer_id: input.customer_id, starts_at: input.starts_at ?? ctx.clock.now().toISOString(), products: input.products,
      invoicing_entity_id: input.invoicing_entity_id, trial_ends_at: input.trial_ends_at ?? null, coupons: coupons.terms,
      collection_method: input.collection_method ?? null,
    });
    await transactWrite([...items, ...coupons.items]);
    return subscription.id;
  });
  return getSubscription(ctx, id);
}

async function redemptionsOf(ctx: Ctx, input: CreateSubscriptionInput) {
  if (!input.coupon_ids?.length && !input.promotion_code) return { items: [], terms: [] };
  const customer = await findCustomerItem(ctx, input.customer_id).catch(() => undefined);
  if (!customer?.currency) return { items: [], terms: [] }; // prepareSubscription says what is wrong with the customer
  if (customer.deleted_at) throw new RuleViolation('customer_not_found', `No customer with id '${customer.id}' (or it is deleted).`);
  return redemptionsFor(ctx, {
    couponIds: input.coupon_ids ?? [], promotionCode: input.promotion_code, customerId: customer.id,
    productIds: [...new Set(input.products.map((p) => p.product_id))], currency: customer.currency, isFirstOrder: await isFirstOrderForCode(ctx, customer.id, input.promotion_code),
  });
}
