import type { Ctx } from '../../context';
import { InvalidRequest, RuleViolation } from '../../errors';
import { quoteCustomer, type QuoteInput } from '../quotes/input';
import type { QuoteLineInput } from '../quotes/quote';
import { oneOf } from './aliases';
import { ourProduct, type HyperlineProductInput } from './subscription-request';

/** The subscription a Hyperline quote proposes: its products (Hyperline's shape), start and invoicing entity. */
interface HyperlineQuoteSubscription {
  products: HyperlineProductInput[];
  starts_at?: string | null;
  invoicing_entity_id?: string;
}

/** `POST /v1/quotes` with Hyperline's members beside ours (docs/hyperline.md). */
export type HyperlineQuoteInput = Omit<QuoteInput, 'type' | 'line_items'> & {
  type?: QuoteInput['type'];
  line_items?: QuoteInput['line_items'];
  subscription?: HyperlineQuoteSubscription;
  automatically_start_subscription?: boolean;
  amount?: number;
};

/** Hyperline names the entity on the quote and on its subscription: one entity, said once or twice alike. */
function sameEntity(quote: string | undefined, subscription: string | undefined): string | undefined {
  return quote !== undefined && quote === subscription ? quote : oneOf(quote, subscription, 'invoicing_entity_id and another subscription.invoicing_entity_id');
}

/**
 * Hyperline's quote body in this API's terms: `subscription` is a quote of type `subscription` whose lines are its
 * products (each resolved to its catalog price configuration as `POST /v2/subscriptions` does), its `starts_at` and
 * `invoicing_entity_id` the quote's; `automatically_start_subscription` is our `post_signature_activation_enabled`.
 * `amount` stays aside: the quote's value is computed from the catalog, and createQuote refuses another.
 */
export async function toQuoteInput(ctx: Ctx, body: HyperlineQuoteInput): Promise<QuoteInput & { amount?: number }> {
  const { subscription, automatically_start_subscription: autoStart, ...ours } = body;
  const activation = oneOf(ours.post_signature_activation_enabled, autoStart, 'post_signature_activation_enabled and automatically_start_subscription');
  const withActivation = { ...ours, ...(activation !== undefined && { post_signature_activation_enabled: activation }) };
  if (!subscription) {
    const missing = (['type', 'line_items'] as const).find((name) => ours[name] === undefined);
    if (missing) throw new InvalidRequest(`Invalid body: body.${missing} is required (or Hyperline's subscription).`, [{ path: `body.${missing}`, message: "is required (or Hyperline's subscription)" }]);
    return withActivation as QuoteInput;
  }
  if (ours.line_items || (ours.type ?? 'subscription') !== 'subscription') {
    throw new RuleViolation('conflicting_members', 'Give subscription (Hyperline\'s) or type and line_items (ours), not both.');
  }
  const { currency } = await quoteCustomer(ctx, body.customer_id);
  const line_items: QuoteLineInput[] = await Promise.all(subscription.products.map(async (p, i) => {
    const { product_id, price_configuration_id, quantity } = await ourProduct(ctx, p, currency, i);
    return { product_id, price_configuration_id, quantity };
  }));
  return {
    ...withActivation,
    type: 'subscription',
    line_items,
    starts_at: oneOf(ours.starts_at, subscription.starts_at, 'starts_at and subscription.starts_at'),
    invoicing_entity_id: sameEntity(ours.invoicing_entity_id, subscription.invoicing_entity_id),
  };
}
