import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';

export const ENDPOINT = 'EP';

/** How long a replaced secret keeps signing beside the new one, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface EndpointItem extends StoredItem {
  id: string;
  url: string;
  description: string | null;
  /** null: every event type. */
  event_types: string[] | null;
  /** Hyperline's deliveries per second, kept as given; absent on endpoints made before it was accepted. */
  rate_limit?: number | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  secret: string;
  previous_secret?: string;
  previous_secret_expires_at?: string;
  attempt_count: number;
  created_at: string;
  updated_at: string;
}

export const endpointKey = (ctx: Ctx, id: string) => entityKey(ctx, ENDPOINT, id);

/** The public representation; the secret appears only in the response that created it. */
export const toEndpoint = (item: EndpointItem) => ({
  id: item.id,
  url: item.url,
  description: item.description,
  event_types: item.event_types,
  rate_limit: item.rate_limit ?? null,
  status: item.status,
  disabled_reason: item.disabled_reason,
  created_at: item.created_at,
  updated_at: item.updated_at,
});

export type Endpoint = ReturnType<typeof toEndpoint>;

export const subscribes = (endpoint: EndpointItem, eventType: string): boolean =>
  endpoint.status === 'enabled' && (endpoint.event_types === null || endpoint.event_types.includes(eventType));

/** The secrets that sign a delivery now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(endpoint: EndpointItem, now: Date): string[] {
  const previous = endpoint.previous_secret;
  const stillValid = previous && endpoint.previous_secret_expires_at && Date.parse(endpoint.previous_secret_expires_at) > now.getTime();
  return stillValid ? [endpoint.secret, previous] : [endpoint.secret];
}
