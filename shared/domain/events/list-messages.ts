import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { InvalidRequest } from '../../errors';
import { ulidTimeBounds } from '../../ids';
import { openIterator, sealIterator } from './iterator';
import { messagesByTypePartition, messagesPartition, toWebhookMessage, type MessageItem, type WebhookMessage } from './messages';

export interface MessageQuery {
  before?: string;
  after?: string;
  event_types?: string;
  'event_types[]'?: string;
  limit: number;
  iterator?: string;
}

interface ListingState {
  lo: string;
  hi: string;
  types: string[];
  /** The last message id returned: the next page starts below it. */
  last: string;
}

/** By default the listing covers the last 90 days (decisions.md). */
export const DEFAULT_WINDOW_MS = 90 * 24 * 3600_000;

/**
 * Newest first. Each event type is its own time-sorted partition (gsi2), and the whole log is one (the table),
 * so any page is one Query per type on a key range, merged: the cost does not grow with the log.
 */
export async function listMessages(ctx: Ctx, query: MessageQuery): Promise<{ meta: { iterator: string | null }; data: WebhookMessage[] }> {
  const state = query.iterator ? await continuing(ctx, query) : fresh(ctx, query);
  const hi = state.last ? below(state.last) : state.hi;
  const pages = await Promise.all(
    (state.types.length > 0 ? state.types : [undefined]).map((type) => queryRange(ctx, type, state.lo, hi, query.limit + 1)),
  );
  const merged = pages.flat().sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, query.limit + 1);
  const page = merged.slice(0, query.limit);
  const more = merged.length > query.limit;
  return {
    meta: { iterator: more ? await sealIterator(ctx, { ...state, last: page.at(-1)!.id }) : null },
    data: page.map(toWebhookMessage),
  };
}

function fresh(ctx: Ctx, query: MessageQuery): ListingState {
  const now = ctx.clock.now().getTime();
  const after = query.after ? Date.parse(query.after) : now - DEFAULT_WINDOW_MS;
  const before = query.before ? Date.parse(query.before) : now + 60_000;
  // Message ids are ULIDs of the change's time: a time range is an id range (after and before are exclusive).
  return { lo: `msg_${ulidTimeBounds(after + 1)[0]}`, hi: `msg_${ulidTimeBounds(before - 1)[1]}`, types: eventTypes(query), last: '' };
}

/** A cursor continues the listing it was made for; other filters beside it must be that listing's. */
async function continuing(ctx: Ctx, query: MessageQuery): Promise<ListingState> {
  const state = await openIterator<ListingState>(ctx, query.iterator!);
  const types = eventTypes(query);
  if (types.length > 0 && types.join(',') !== state.types.join(',')) {
    throw new InvalidRequest('The iterator belongs to a listing of other event types.', [{ path: 'query.event_types', message: 'differs from the iterator’s' }], 'invalid_iterator');
  }
  return state;
}

const eventTypes = (query: MessageQuery): string[] =>
  [...new Set([query.event_types, query['event_types[]']].filter(Boolean).join(',').split(',').filter(Boolean))].sort();

/** An inclusive upper bound just below `id`: ids have one length, so lowering the last character code suffices. */
const below = (id: string): string => id.slice(0, -1) + String.fromCharCode(id.charCodeAt(id.length - 1) - 1);

async function queryRange(ctx: Ctx, type: string | undefined, lo: string, hi: string, want: number): Promise<MessageItem[]> {
  if (hi < lo) return [];
  const [pk, sk] = type ? ['gsi2pk', 'gsi2sk'] : ['pk', 'sk'];
  const items: MessageItem[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...(type && { IndexName: 'gsi2' }),
        KeyConditionExpression: `${pk} = :p AND ${sk} BETWEEN :lo AND :hi`,
        ExpressionAttributeValues: { ':p': type ? messagesByTypePartition(ctx, type) : messagesPartition(ctx), ':lo': lo, ':hi': hi },
        ScanIndexForward: false,
        Limit: want - items.length,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...((page.Items ?? []) as MessageItem[]));
    cursor = page.LastEvaluatedKey;
  } while (cursor && items.length < want);
  return items;
}
