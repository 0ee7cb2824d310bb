import { runDueWork } from '../../shared/domain/schedules/run-due';
import { transactWrite } from '../../shared/db/transactions';
import { prepareSubscription, prepareSubscriptionUpdate, type NewSubscriptionInput, type SubscriptionProductInput } from '../../shared/domain/subscriptions/prepare';
import { toSubscription, type Subscription } from '../../shared/domain/subscriptions/subscription';
import { workspaceCtx } from '../../shared/domain/test-clocks/workspace-clock';
import type { Client } from './api';

/**
 * Subscriptions come from signed quotes; until a test signs one, this writes one the way a signature does:
 * `prepareSubscription`'s items in one transaction, in the client's workspace, at its now (its test clock's, if any).
 */
export async function subscribe(client: Client, input: NewSubscriptionInput): Promise<Subscription> {
  const { subscription, items } = await prepareSubscription(await workspaceCtx(client.workspace, 'test'), input);
  await transactWrite(items);
  return toSubscription(subscription);
}

/** The same for a subscription_update quote: the new full product list. */
export async function changeSubscription(client: Client, id: string, products: SubscriptionProductInput[]): Promise<Subscription> {
  const { subscription, items } = await prepareSubscriptionUpdate(await workspaceCtx(client.workspace, 'test'), id, { products });
  await transactWrite(items);
  return toSubscription(subscription);
}

export interface PricedProduct {
  product_id: string;
  price_configuration_id: string;
}

/** A product of `type` with one configuration (a fee, tiers for seat/dynamic, a pack for credit) billed every `interval`. */
export async function pricedProduct(
  client: Client,
  type: 'flat_fee' | 'seat' | 'dynamic' | 'credit',
  options: { amount?: number; interval?: Record<string, unknown>; currency?: string; name?: string } = {},
): Promise<PricedProduct> {
  const amount = options.amount ?? 1_000;
  const product = await client.post('/v1/products', { name: options.name ?? `${type} product`, type });
  if (product.status !== 201) throw new Error(`product creation failed: ${JSON.stringify(product.body)}`);
  const prices: Record<string, { type: string; prices: unknown[] }> = {
    flat_fee: { type: 'fee', prices: [{ amount }] },
    seat: { type: 'volume', prices: [{ from: 1, to: null, amount, unit_count: 1, on_tier_incomplete: 'pro_rata' }] },
    dynamic: { type: 'volume', prices: [{ from: 1, to: null, amount, unit_count: 1, on_tier_incomplete: 'pro_rata' }] },
    credit: { type: 'bundle', prices: [{ amount, pack_size: 10 }] },
  };
  const configuration = await client.post('/v1/price-configurations', {
    product_id: product.body.id, currency: options.currency ?? 'EUR', ...prices[type], billing_interval: options.interval ?? { period: 'months', count: 1 },
  });
  if (configuration.status !== 201) throw new Error(`price configuration creation failed: ${JSON.stringify(configuration.body)}`);
  return { product_id: product.body.id, price_configuration_id: configuration.body.id };
}

/** An EUR customer (an invoicing entity first, when the workspace has none). */
export async function subscriber(client: Client, body: Record<string, unknown> = {}): Promise<{ id: string }> {
  if ((await client.get('/v1/invoicing-entities?take=0')).body.meta.total === 0) {
    await client.post('/v1/invoicing-entities', { name: 'Acme', country: 'FR', currency: 'EUR' });
  }
  const reply = await client.post('/v1/customers', { name: 'Subscriber', currency: 'EUR', billing_address: { country: 'FR' }, ...body });
  if (reply.status !== 201) throw new Error(`customer creation failed: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** The same day `months` calendar months later (UTC), clamped to the month's last day, as billing periods advance. */
export const monthsAfter = (iso: string, months: number): string => {
  const start = new Date(iso);
  const next = new Date(iso);
  next.setUTCDate(1);
  next.setUTCMonth(start.getUTCMonth() + months);
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(start.getUTCDate(), last));
  return next.toISOString();
};

/**
 * The scheduled work of one client's workspace (other test files share the table), at the movable clock's now, and
 * the move of that clock to one minute past a billing date.
 */
export const scheduledWork = (client: () => Client, clock: { now: () => Date; advance: (ms: number) => void }) => ({
  run: () => runDueWork(clock.now(), { workspaces: new Set([client().workspace]) }),
  moveTo: (iso: string) => clock.advance(Date.parse(iso) + 60_000 - clock.now().getTime()),
});
