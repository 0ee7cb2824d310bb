/**
 * Webhook messages written straight into DynamoDB Local, shaped as shared/domain/events/record-events.ts writes
 * them, so the list benchmark can meet 50,000 of them without 50,000 stream round trips. Imports the shared table
 * client (through record-events): import this module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { putBatch } from './batch-write';
import type { Ctx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import type { EventType } from '../../shared/domain/events/catalog';
import { messageItemKeys, type MessageItem } from '../../shared/domain/events/messages';
import { recordEvents, type Change } from '../../shared/domain/events/record-events';
import { deterministicUlid } from '../../shared/ids';

/**
 * The message item recordEvents writes for event `index` of `change`: same id derivation (a ULID of the change's
 * time, seeded by sha256(`changeId#index`)), same keys, same attributes. Its `evt_` twin lives in another
 * partition and is not read by the listing, so the seed does not write it. `checkMessageShape` keeps this honest.
 */
export function messageItem(ctx: Ctx, change: Change, index: number): MessageItem {
  const event = change.events[index]!;
  const seed = createHash('sha256').update(`${change.changeId}#${index}`).digest();
  const ulid = deterministicUlid(change.time, seed);
  const at = new Date(change.time).toISOString();
  return {
    ...messageItemKeys(ctx, `msg_${ulid}`, event.type),
    _type: 'webhook_message',
    _version: 0,
    id: `msg_${ulid}`,
    event_id: `evt_${ulid}`,
    payload: { event_type: event.type, data: event.data },
    sent_at: at,
    created_at: at,
  };
}

/**
 * Runs the real recordEvents once (in a scratch workspace) and fails if the item it stored differs from
 * `messageItem`'s: if record-events.ts changes its items, the seed must change with it.
 */
export async function checkMessageShape(ctx: Ctx, change: Change): Promise<void> {
  const recorded = await recordEvents(ctx, change);
  for (const [index, { message }] of recorded.entries()) {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: { pk: message.pk, sk: message.sk }, ConsistentRead: true }));
    deepStrictEqual(Item, { ...messageItem(ctx, change, index) }, 'the bench seed no longer builds message items as record-events.ts stores them');
  }
}

/** A weighted mix of event types (weights out of 20): the `event_types` filter reads one of several partitions. */
const TYPE_MIX: [EventType, number][] = [
  ['customer.created', 4],
  ['customer.updated', 9],
  ['customer.archived', 2],
  ['customer.unarchived', 1],
  ['invoicing_entity.created', 1],
  ['invoicing_entity.updated', 3],
];
const TYPE_CYCLE: EventType[] = TYPE_MIX.flatMap(([type, weight]) => Array<EventType>(weight).fill(type));
export const SEEDED_TYPES = TYPE_MIX.map(([type]) => type);
/** The share of the seeded messages that are of `type`. */
export const typeShare = (type: EventType): number => TYPE_CYCLE.filter((t) => t === type).length / TYPE_CYCLE.length;

export interface SeedOptions {
  endpoint: string;
  ctx: Ctx;
  count: number;
  /** Message times are spread evenly over [now - spanMs, now - 1 min]. */
  spanMs: number;
  now: number;
  /** The event `data` of a message of this type and number (a resource's public representation). */
  data: (type: EventType, i: number) => object;
  /** BatchWriteItem calls in flight at once. */
  concurrency: number;
  label: string;
}

export interface SeedResult {
  count: number;
  seconds: number;
  /** Each type's newest message id: what the first page of a listing must start with. */
  newestByType: Map<EventType, string>;
  newest: string;
  /** BatchWriteItem calls that came back with UnprocessedItems and were re-sent. */
  retries: number;
}

const BATCH = 25;

/**
 * Writes `count` messages with BatchWriteItem (25 items per call, `concurrency` calls in flight), re-sending
 * UnprocessedItems with backoff; prints progress to stderr. Uses its own client: the shared one's call counter
 * stays the handlers'.
 */
export async function seedMessages(options: SeedOptions): Promise<SeedResult> {
  const { ctx, count, spanMs, now } = options;
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: options.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const first = now - spanMs;
  const step = (spanMs - 60_000) / count;
  const item = (i: number): MessageItem => {
    const type = TYPE_CYCLE[i % TYPE_CYCLE.length]!;
    const change: Change = { changeId: `bench-seed-${ctx.workspaceId}-${i}`, time: Math.floor(first + i * step), events: [{ type, data: options.data(type, i) }] };
    return messageItem(ctx, change, 0);
  };

  const newestByType = new Map<EventType, string>();
  let newest = '';
  let next = 0;
  let written = 0;
  let retries = 0;
  let reported = 0;
  const started = performance.now();

  async function writeBatch(items: MessageItem[]): Promise<void> {
    retries += await putBatch(client, items as unknown as Record<string, unknown>[], options.label);
  }


  async function worker(): Promise<void> {
    while (next < count) {
      const from = next;
      next = Math.min(count, next + BATCH);
      const items: MessageItem[] = [];
      for (let i = from; i < next; i++) {
        const message = item(i);
        items.push(message);
        const type = message.payload.event_type;
        if ((newestByType.get(type) ?? '') < message.id) newestByType.set(type, message.id);
        if (newest < message.id) newest = message.id;
      }
      await writeBatch(items);
      written += items.length;
      if (written - reported >= 10_000 || written === count) {
        reported = written;
        const seconds = (performance.now() - started) / 1000;
        console.error(`  ${options.label}: ${written.toLocaleString('en-US')}/${count.toLocaleString('en-US')} messages (${seconds.toFixed(1)} s, ${Math.round(written / seconds)}/s)`);
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    client.destroy();
  }
  return { count, seconds: (performance.now() - started) / 1000, newestByType, newest, retries };
}
