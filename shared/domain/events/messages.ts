import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { collectionKey, collectionPartition, type Key } from '../../db/keys';
import { shardOf } from '../../db/shards';
import type { EventType } from './catalog';

/**
 * Webhook messages and events live in LOG_SHARDS partitions per workspace each (`WS#<ws>#MSG#<shard>`, the shard
 * from the item's id), sorted by id: a message id is a ULID whose time is the change's, so "newest first between
 * two times" is one Query per shard on a key range, merged (list-messages.ts). `gsi2` holds the same messages per
 * event type, in TYPE_SHARDS partitions each, for the `event_types` filter. One partition takes 1,000 write
 * units/s; a message costs about 6 on its log partition (a ~3 KB item, written in a transaction): docs/operations.md.
 *
 * Messages written before the logs were sharded stay where they were (`WS#<ws>#MSG`, `WS#<ws>#MSGTYPE#<type>`):
 * listings read that partition as one more shard, and a lookup by id falls back to it.
 */
export const MESSAGES = 'MSG';
export const EVENTS = 'EVT';
export const LOG_SHARDS = 16;
export const TYPE_SHARDS = 8;

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

const shardedKey = (ctx: Ctx, collection: string, id: string): Key => collectionKey(ctx, `${collection}#${shardOf(id, LOG_SHARDS)}`, id);

export const messageKey = (ctx: Ctx, id: string): Key => shardedKey(ctx, MESSAGES, id);
export const eventKey = (ctx: Ctx, id: string): Key => shardedKey(ctx, EVENTS, id);

/** Every key of a new message: its log shard, and its type's index shard (both from its id). */
export const messageItemKeys = (ctx: Ctx, id: string, type: string) => ({
  ...messageKey(ctx, id),
  gsi2pk: messagesByTypePartition(ctx, type, shardOf(id, TYPE_SHARDS)),
  gsi2sk: id,
});

/** The log's partitions: the unsharded one of messages written before the shards, then each shard. */
export const messagesPartitions = (ctx: Ctx): string[] => [
  collectionPartition(ctx, MESSAGES),
  ...Array.from({ length: LOG_SHARDS }, (_, shard) => collectionPartition(ctx, `${MESSAGES}#${shard}`)),
];

/** One event type's index partitions (gsi2): the unsharded one first, as messagesPartitions. */
export const messagesByTypePartitions = (ctx: Ctx, type: string): string[] => [
  collectionPartition(ctx, `MSGTYPE#${type}`),
  ...Array.from({ length: TYPE_SHARDS }, (_, shard) => messagesByTypePartition(ctx, type, shard)),
];

const messagesByTypePartition = (ctx: Ctx, type: string, shard: number) => collectionPartition(ctx, `MSGTYPE#${type}#${shard}`);

/** A message by id, in its shard or, written before the shards, in the unsharded log. */
export async function findMessage(ctx: Ctx, id: string, consistent = false): Promise<MessageItem | undefined> {
  return (await getItem<MessageItem>(messageKey(ctx, id), consistent)) ?? getItem<MessageItem>(collectionKey(ctx, MESSAGES, id), consistent);
}

export const toWebhookMessage = (item: MessageItem): WebhookMessage => ({
  id: item.id,
  event_id: item.event_id,
  payload: item.payload,
  sent_at: item.sent_at,
});
