import type { Ctx } from '../../context';
import { collectionKey } from '../../db/keys';

/**
 * One message's delivery to one endpoint: `WS#<ws>#DLV#<message id>` / `<endpoint id>`. `attempts` only grows, by
 * a write conditioned on its previous value, so duplicate queue jobs for the same attempt record it once.
 */
export interface DeliveryItem {
  pk: string;
  sk: string;
  _type: 'webhook_delivery';
  message_id: string;
  endpoint_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  /** Start of the 3-day retry window: the message's creation, or the last manual retry. */
  window_started_at: string;
  last_status_code: number | null;
}

export const deliveryKey = (ctx: Ctx, messageId: string, endpointId: string) => collectionKey(ctx, `DLV#${messageId}`, endpointId);

export interface AttemptItem {
  pk: string;
  sk: string;
  _type: 'webhook_attempt';
  id: string;
  message_id: string;
  endpoint_id: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
}

export const toAttempt = (item: AttemptItem) => ({
  id: item.id,
  message_id: item.message_id,
  endpoint_id: item.endpoint_id,
  attempt: item.attempt,
  status: item.status,
  status_code: item.status_code,
  error: item.error,
  duration_ms: item.duration_ms,
  attempted_at: item.attempted_at,
});
