import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { NotFound } from '../../errors';
import { connectionKey, toConnection, type ProviderConnection, type ProviderConnectionItem } from './connection';

/* Reading and forgetting connections: no call to the provider, so no provider SDK in these routes' bundles. */

export async function listConnections(ctx: Ctx) {
  const stripe = await getItem<ProviderConnectionItem>(connectionKey(ctx, 'stripe'), true);
  const data = stripe ? [toConnection(ctx, stripe)] : [];
  return { meta: { total: data.length, taken: data.length, skipped: 0 }, data };
}

const notConnected = () => new NotFound('payment provider', 'stripe');

/**
 * Forgets the workspace's Stripe keys. Its saved Stripe payment methods stay listed, but saving or charging one is
 * a 422 `payment_provider_not_connected` until it connects again. A second disconnect is a 404.
 */
export async function disconnectStripe(ctx: Ctx): Promise<ProviderConnection> {
  const item = await getItem<ProviderConnectionItem>(connectionKey(ctx, 'stripe'), true);
  if (!item) throw notConnected();
  await transactWrite([{ Delete: { TableName: tableName(), Key: connectionKey(ctx, 'stripe'), ConditionExpression: 'attribute_exists(pk)' } }]).catch((error: unknown) => {
    throw error instanceof ConditionFailed ? notConnected() : error;
  });
  return toConnection(ctx, item, 'disconnected');
}
