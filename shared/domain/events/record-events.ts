import { createHash } from 'node:crypto';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { transactWrite, writeUnlessDone } from '../../db/transactions';
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
 * Stores each event as an `evt_` item and its `msg_` webhook message, in one transaction per event. Ids come from
 * the change id and the event's position, so a redelivered change finds its items already there and writes nothing.
 * `data` is bounded (bounded-data.ts), so any resource fits in an item and a webhook body.
 * Returns every message of the change, with `created` telling which ones this call wrote.
 */
export async function recordEvents(ctx: Ctx, change: Change): Promise<{ message: MessageItem; created: boolean }[]> {
  const recorded = [];
  for (const [index, event] of change.events.entries()) {
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
    const created = await writeUnlessDone(
      transactWrite([
        { Put: { TableName: tableName(), Item: stored, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName(), Item: message, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]),
    );
    recorded.push({ message, created });
  }
  return recorded;
}
