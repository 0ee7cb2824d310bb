import type { Ctx } from '../../context';
import { transactWrite } from '../../db/transactions';
import { retryOnRace } from '../../db/items';
import { InvalidRequest, RuleViolation } from '../../errors';
import { versionToSubscribe } from '../plans/read';
import { redemptionsFor } from '../invoices/coupons';
import { isFirstOrderForCode } from '../invoices/read';
import { findCustomerItem } from '../customers/read';
import { prepareSubscription, type SubscriptionProductInput } from './prepare';
import { getSubscription } from './read';
import type { Subscription } from './subscription';
import type { CollectionMethod } from '../collection/settings';
import { toSubscriptionMembers, type HyperlineSubscriptionMembers } from '../hyperline/subscription-request';

export interface CreateSubscriptionInput {
  customer_id: string;
  /** Its products, or those of a plan version (`plan_id` / `plan_version_id`): one or the other. */
  products?: SubscriptionProductInput[];
  plan_id?: string;
  plan_version_id?: string;
  /** Default: now. */
  starts_at?: string;
  trial_ends_at?: string | null;
  invoicing_entity_id?: string;
  /** Coupons (ids) and a promotion code, redeemed now, applied to its invoices as long as each lasts. */
  coupon_ids?: string[];
  promotion_code?: string;
  /** Null (default): the customer's (docs/collection.md). */
  collection_method?: CollectionMethod | null;
  /** Hyperline's members (docs/hyperline.md): kept as given. */
  name?: string | null;
  purchase_order?: string | null;
  minimum_invoice_fee?: number | null;
}

/** The body: ours, and Hyperline's members and product shape beside (docs/hyperline.md). */
export type CreateSubscriptionBody = Omit<CreateSubscriptionInput, 'products'> & HyperlineSubscriptionMembers;

/**
 * `POST /v2/subscriptions`: the subscription a signed quote would start, made by the same function
 * (`prepareSubscription`), so both paths give the same subscription; the coupons and promotion code are redeemed in
 * the same transaction (as a signature redeems its quote's code). Answers as `GET /v2/subscriptions/{id}`.
 */
export async function createSubscription(ctx: Ctx, body: CreateSubscriptionBody): Promise<Subscription> {
  const input = await creationInput(ctx, body);
  const id = await retryOnRace(async () => {
    const coupons = await redemptionsOf(ctx, input);
    const { subscription, items } = await prepareSubscription(ctx, {
      customer_id: input.customer_id, starts_at: input.starts_at ?? ctx.clock.now().toISOString(), products: input.products,
      invoicing_entity_id: input.invoicing_entity_id, trial_ends_at: input.trial_ends_at ?? null, coupons: coupons.terms,
      collection_method: input.collection_method ?? null, plan: input.plan,
      name: input.name, purchase_order: input.purchase_order, minimum_invoice_fee: input.minimum_invoice_fee,
    });
    await transactWrite([...items, ...coupons.items]);
    return subscription.id;
  });
  return getSubscription(ctx, id);
}

/** The body in this API's terms (Hyperline's members mapped, a plan's products taken): what a creation and its preview make. */
export const creationInput = async (ctx: Ctx, body: CreateSubscriptionBody) => withPlanProducts(ctx, await toSubscriptionMembers(ctx, body) as CreateSubscriptionInput);

/** `products`, or the products of the plan version named (docs/plans.md), never both (also for its preview: preview.ts). */
async function withPlanProducts(ctx: Ctx, input: CreateSubscriptionInput) {
  const byPlan = input.plan_id !== undefined || input.plan_version_id !== undefined;
  if (byPlan === (input.products !== undefined)) {
    const message = byPlan ? 'give products or a plan (plan_id / plan_version_id), not both' : 'needs products, or plan_id / plan_version_id';
    throw new InvalidRequest(`Invalid subscription: ${message}.`, [{ path: 'body.products', message }]);
  }
  if (!byPlan) return { ...input, products: input.products!, plan: undefined };
  const version = await versionToSubscribe(ctx, input.plan_id, input.plan_version_id);
  return { ...input, products: version.products, plan: { plan_id: version.plan_id, plan_version_id: version.id } };
}

export async function redemptionsOf(ctx: Ctx, input: CreateSubscriptionInput) {
  if (!input.coupon_ids?.length && !input.promotion_code) return { items: [], terms: [] };
  const customer = await findCustomerItem(ctx, input.customer_id).catch(() => undefined);
  if (!customer?.currency) return { items: [], terms: [] }; // prepareSubscription says what is wrong with the customer
  if (customer.deleted_at) throw new RuleViolation('customer_not_found', `No customer with id '${customer.id}' (or it is deleted).`);
  return redemptionsFor(ctx, {
    couponIds: input.coupon_ids ?? [], promotionCode: input.promotion_code, customerId: customer.id,
    productIds: [...new Set(input.products!.map((p) => p.product_id))], currency: customer.currency, isFirstOrder: await isFirstOrderForCode(ctx, customer.id, input.promotion_code),
  });
}
