import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import { serviceIssuer } from '../../identity/issuer';
import { keyEnvironment } from '../api-keys/api-key';
import type { SealedSecret } from './secret-box';

/** The providers a workspace can connect (the sandbox needs no connection). */
export const CONNECTABLE_PROVIDERS = ['stripe'] as const;
export type ConnectableProvider = (typeof CONNECTABLE_PROVIDERS)[number];

/** A workspace's connection to a payment provider: `WS#<ws>#PPR#<provider>` / `PPR`. Its secrets are sealed. */
export interface ProviderConnectionItem extends StoredItem {
  _type: 'payment_provider';
  provider: ConnectableProvider;
  /** The provider's account the key belongs to (Stripe's `acct_…`). */
  account_id: string;
  livemode: boolean;
  secret_key: SealedSecret;
  secret_key_last4: string;
  publishable_key: string;
  webhook_secret: SealedSecret | null;
  connected_at: string;
  updated_at: string;
}

export const PAYMENT_PROVIDER = 'PPR';
export const connectionKey = (ctx: Ctx, provider: ConnectableProvider) => entityKey(ctx, PAYMENT_PROVIDER, provider);

/**
 * Whether this deployment's workspaces are live: its API keys say so (`sk_live_…`, API_KEY_ENVIRONMENT `live`, the
 * default); any other environment (`sk_test_…` under `npm start`) is test mode. A provider key must be of that mode.
 */
export const workspaceLivemode = (): boolean => keyEnvironment() === 'live';

/** Where Stripe sends this workspace's events (the URL to register in Stripe's dashboard). */
export const stripeWebhookUrl = (ctx: Ctx): string => `${serviceIssuer()}/v1/payment-providers/stripe/webhooks/${ctx.workspaceId}`;

/** The public representation: never a secret, only the last four characters of the secret key. */
export function toConnection(ctx: Ctx, item: ProviderConnectionItem, status: 'connected' | 'disconnected' = 'connected') {
  return {
    provider: item.provider,
    status,
    livemode: item.livemode,
    account_id: item.account_id,
    secret_key_last4: item.secret_key_last4,
    publishable_key: item.publishable_key,
    webhook_url: stripeWebhookUrl(ctx),
    webhook_secret_configured: item.webhook_secret !== null,
    connected_at: item.connected_at,
  };
}

export type ProviderConnection = ReturnType<typeof toConnection>;
