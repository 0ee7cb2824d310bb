import { createHash } from 'node:crypto';
import type { Ctx } from '../../context';
import { chunksOf } from '../../concurrency';
import { tableName } from '../../db/client';
import { ConditionFailed, transactWrite, writeUnlessDone, type TransactItem } from '../../db/transactions';
import { deterministicUlid } from '../../ids';
import { boundData } from './bounded-data';
import type { EventDraft } from './catalog';
import { eventKey, messageItemKeys, type MessageItem } from './messages';

/** One item change as the stream delivers it: `changeId` is unique per change and stable across redeliveries. */
export interface Change {
  changeId: string;
  /** When the change happened (ms): the item's `updated_at`, else the stream's approximate time. */
  time: number;
  events: EventDraft[];
}

/**
 * Events of one change written in one transaction, at most this many: two items each, whose `data` is at most
 * MAX_DATA_BYTES (96 KB), so 16 stay within a transaction's 4 MB (and 100 items) whatever they hold.
 */
const EVENTS_PER_TRANSACTION = 16;

interface Drafted {
  message: MessageItem;
  puts: TransactItem[];
}

/**
 * Stores each event as an `evt_` item and its `msg_` webhook message, each inserted only if absent: the events of a
 * change in one transaction (an invoice issued and due, paid and charged: one write instead of one per event). Ids
 * come from the change id and the event's position, so a redelivered change finds its items already there and
 * writes nothing; if a transaction fails because some are there (an earlier try got part of the way), its events
 * are written one by one, each unless done. `data` is bounded (bounded-data.ts), so any resource fits in an item and
 * a webhook body. Returns every message of the change, with `created` telling which ones this call wrote.
 */
export async function recordEvents(ctx: Ctx, change: Change): Promise<{ message: MessageItem; created: boolean }[]> {
  const recorded = [];
  for (const chunk of chunksOf(change.events.map((event, index) => drafted(ctx, change, event, index)), EVENTS_PER_TRANSACTION)) {
    recorded.push(...(await writeAll(chunk)));
  }
  return recorded;
}

async function writeAll(chunk: Drafted[]): Promise<{ message: MessageItem; created: boolean }[]> {
  if (chunk.length > 1) {
    try {
      await transactWrite(chunk.flatMap((d) => d.puts));
      return chunk.map(({ message }) => ({ message, created: true }));
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  const recorded = [];
  for (const { message, puts } of chunk) recorded.push({ message, created: await writeUnlessDone(transactWrite(puts)) });
  return recorded;
}

function drafted(ctx: Ctx, change: Change, event: EventDraft, index: number): Drafted {
  const seed = createHash('sha256').update(`${change.changeId}#${index}`).digest();
  const ulid = deterministicUlid(change.time, seed);
  const at = new Date(change.time).toISOString();
  const { data, truncated } = boundData(event.data);
  const message: MessageItem = {
    ...messageItemKeys(ctx, `msg_${ulid}`, event.type),
    _type: 'webhook_message',
    _version: 0,
    id: `msg_${ulid}`,
    event_id: `evt_${ulid}`,
    payload: { event_type: event.type, data, ...(truncated && { truncated }) },
    sent_at: at,
    created_at: at,
  };
  const stored = { ...eventKey(ctx, message.event_id), _type: 'event', id: message.event_id, type: event.type, data, ...(truncated && { truncated }), created_at: at };
  const insert = (Item: object): TransactItem => ({ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' } });
  return { message, puts: [insert(stored), insert(message)] };
}
