import type Stripe from 'stripe';
import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { transactWrite } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { tableName } from '../../db/client';
import { stripeClient } from '../payments/stripe/client';
import { atStripe } from '../payments/stripe/errors';
import { connectionKey, toConnection, workspaceLivemode, type ProviderConnection, type ProviderConnectionItem } from './connection';
import { openSecret, sealSecret } from './secret-box';

export interface StripeConnectionInput {
  secret_key: string;
  publishable_key: string;
  webhook_secret?: string;
}

/** `sk_live_…`/`rk_live_…` (restricted) keys are live, `_test_` ones test: the schema admits nothing else. */
const isLiveKey = (key: string): boolean => /^[a-z]{2}_live_/.test(key);
const modeName = (live: boolean) => (live ? 'live' : 'test');

/**
 * Connects the workspace to Stripe (or replaces its keys): the keys must be of one mode, the workspace's
 * (`workspaceLivemode`); one call to Stripe checks the secret key and names its account (422 `provider_key_invalid`
 * when refused); the secrets are sealed (secret-box.ts) before they are stored. Reconnecting the same account keeps
 * `connected_at`.
 */
export async function connectStripe(ctx: Ctx, input: StripeConnectionInput): Promise<ProviderConnection> {
  const livemode = isLiveKey(input.secret_key);
  if (isLiveKey(input.publishable_key) !== livemode) {
    throw new RuleViolation('provider_key_mode_mismatch', `The secret key is a ${modeName(livemode)} key but the publishable key a ${modeName(!livemode)} key: give both of one mode.`);
  }
  if (livemode !== workspaceLivemode()) {
    throw new RuleViolation(
      'provider_livemode_mismatch',
      `This workspace is in ${modeName(workspaceLivemode())} mode (its API keys are sk_${workspaceLivemode() ? 'live' : 'test'}_…): connect Stripe with its ${modeName(workspaceLivemode())} keys, not ${modeName(livemode)} ones.`,
    );
  }
  const account = await atStripe(async () => (await stripeClient(input.secret_key)).accounts.retrieveCurrent());
  const previous = await getItem<ProviderConnectionItem>(connectionKey(ctx, 'stripe'), true);
  const [secretKey, webhookSecret] = await Promise.all([
    sealSecret(ctx.workspaceId, input.secret_key),
    input.webhook_secret === undefined ? null : sealSecret(ctx.workspaceId, input.webhook_secret),
  ]);
  const now = ctx.clock.now().toISOString();
  const item: ProviderConnectionItem = {
    ...connectionKey(ctx, 'stripe'),
    _type: 'payment_provider',
    _version: (previous?._version ?? -1) + 1,
    provider: 'stripe',
    account_id: account.id,
    livemode,
    secret_key: secretKey,
    secret_key_last4: input.secret_key.slice(-4),
    publishable_key: input.publishable_key,
    webhook_secret: webhookSecret,
    connected_at: previous?.account_id === account.id ? previous.connected_at : now,
    updated_at: now,
  };
  // Last writer wins between two concurrent connects: each checked its own key.
  await transactWrite([{ Put: { TableName: tableName(), Item: item } }]);
  return toConnection(ctx, item);
}

/** The workspace's Stripe: its connection and the SDK client of its key; 422 `payment_provider_not_connected` without. */
export async function connectedStripe(ctx: Ctx): Promise<{ connection: ProviderConnectionItem; stripe: Stripe }> {
  const connection = await getItem<ProviderConnectionItem>(connectionKey(ctx, 'stripe'), true);
  if (!connection) {
    throw new RuleViolation('payment_provider_not_connected', 'This workspace is not connected to Stripe: connect it with PUT /v1/payment-providers/stripe first.');
  }
  return { connection, stripe: await stripeClient(await openSecret(ctx.workspaceId, connection.secret_key)) };
}
