import type { Ctx } from '../../context';
import { collectionKey, collectionPartition } from '../../db/keys';
import type { EventType } from './catalog';

/**
 * Webhook messages live in one partition per workspace, sorted by id: a message id is a ULID whose time is the
 * change's, so "newest first between two times" is one Query on a key range. `gsi2` holds the same items per
 * event type, for the `event_types` filter.
 */
export const MESSAGES = 'MSG';
export const EVENTS = 'EVT';

export interface WebhookMessage {
  id: string;
  event_id: string;
  /** `truncated`: the members of `data` omitted (null) to keep it bounded (bounded-data.ts). */
  payload: { event_type: EventType; data: object; truncated?: string[] };
  sent_at: string;
}

export interface MessageItem extends WebhookMessage {
  pk: string;
  sk: string;
  gsi2pk: string;
  gsi2sk: string;
  _type: 'webhook_message';
  _version: number;
  created_at: string;
}

export const messageKey = (ctx: Ctx, id: string) => collectionKey(ctx, MESSAGES, id);
export const messagesPartition = (ctx: Ctx) => collectionPartition(ctx, MESSAGES);
export const messagesByTypePartition = (ctx: Ctx, type: string) => collectionPartition(ctx, `MSGTYPE#${type}`);

export const toWebhookMessage = (item: MessageItem): WebhookMessage => ({
  id: item.id,
  event_id: item.event_id,
  payload: item.payload,
  sent_at: item.sent_at,
});
