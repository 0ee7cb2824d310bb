import type { Ctx } from '../../context';
import { Conflict, NotFound, RuleViolation } from '../../errors';
import type { CouponTerms } from '../invoices/invoice';
import { prepareSubscription, prepareSubscriptionUpdate, type PreparedSubscription } from '../subscriptions/prepare';
import type { SubscriptionItem } from '../subscriptions/subscription';
import { findSubscriptionItem } from '../subscriptions/write';
import type { QuoteItem, QuoteLineInput, QuoteType } from './quote';

type QuoteFacts = Pick<QuoteItem, 'type' | 'customer_id' | 'subscription_id' | 'invoicing_entity_id'> & { id?: string };

const subscriptionMissing = (id: string, why = '') => new RuleViolation('subscription_not_found', `No subscription with id '${id}'${why}.`);

/**
 * The subscription a subscription_update quote changes: it must exist and be the quote's customer's (422
 * `subscription_not_found` otherwise). Undefined for the other types.
 */
export async function subscriptionToUpdate(ctx: Ctx, quote: Pick<QuoteItem, 'type' | 'customer_id' | 'subscription_id'>): Promise<SubscriptionItem | undefined> {
  if (quote.type !== 'subscription_update' || !quote.subscription_id) return undefined;
  const subscription = await findSubscriptionItem(ctx, quote.subscription_id).catch((error: unknown) => {
    throw error instanceof NotFound ? subscriptionMissing(quote.subscription_id!) : error;
  });
  if (subscription.customer_id !== quote.customer_id) throw subscriptionMissing(subscription.id, ` for customer '${quote.customer_id}'`);
  return subscription;
}

/** The products of the subscription being updated: they may stay in it even if archived since. */
export const keptProducts = (subscription: SubscriptionItem | undefined): ReadonlySet<string> =>
  new Set(subscription?.products.map((p) => p.product_id) ?? []);

export const needsSubscription = (type: QuoteType): boolean => type !== 'one_off';

/**
 * What the subscriptions domain writes for a signature (`shared/domain/subscriptions/prepare.ts`): a new
 * subscription, or the new product list of the one being updated. Every rule of subscriptions is checked there (one
 * recurring billing interval, at least one recurring product…); nothing is written. Its answers about the
 * subscription named by the quote become 422s: the quote route is not about that resource.
 */
export async function prepareEffect(
  ctx: Ctx, quote: QuoteFacts, lines: readonly QuoteLineInput[], startsAt: string, coupons: CouponTerms[] = [],
): Promise<PreparedSubscription> {
  const products = lines.map((l) => ({ product_id: l.product_id!, price_configuration_id: l.price_configuration_id, quantity: l.quantity ?? 1 }));
  if (quote.type === 'subscription') {
    return prepareSubscription(ctx, {
      customer_id: quote.customer_id, starts_at: startsAt, products, quote_id: quote.id ?? null, invoicing_entity_id: quote.invoicing_entity_id, coupons,
    });
  }
  try {
    return await prepareSubscriptionUpdate(ctx, quote.subscription_id!, { products });
  } catch (error) {
    if (error instanceof NotFound) throw subscriptionMissing(quote.subscription_id!);
    if (error instanceof Conflict) throw new RuleViolation('subscription_cancelled', error.message);
    throw error;
  }
}

/**
 * The subscription rules, checked when a subscription quote is written (created, edited) as well as when it is
 * signed, so that a quote that could never be signed is refused at once: a dry run of `prepareEffect`.
 */
export async function assertSubscriptionRules(ctx: Ctx, quote: QuoteFacts & Pick<QuoteItem, 'starts_at'>, lines: readonly QuoteLineInput[]): Promise<void> {
  if (needsSubscription(quote.type)) await prepareEffect(ctx, quote, lines, quote.starts_at ?? ctx.clock.now().toISOString());
}
