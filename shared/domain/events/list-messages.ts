import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { InvalidRequest } from '../../errors';
import { ulidTimeBounds } from '../../ids';
import { openIterator, sealIterator } from './iterator';
import { MergedReader, type PageReader } from '../../db/shards';
import { messagesByTypePartitions, messagesPartitions, toWebhookMessage, type MessageItem, type WebhookMessage } from './messages';

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
 * Newest first. The log is LOG_SHARDS time-sorted partitions (the table) and each event type TYPE_SHARDS more
 * (gsi2): a page is one Query per partition on a key range, merged newest first (shards.ts), asking each for about
 * its share of the page: the cost grows with the shards, not with the log. The cursor is the last id returned,
 * which does not depend on the shards: a page continues below it in every one.
 */
export async function listMessages(ctx: Ctx, query: MessageQuery): Promise<{ meta: { iterator: string | null }; data: WebhookMessage[] }> {
  const state = query.iterator ? await continuing(ctx, query) : fresh(ctx, query);
  const hi = state.last ? below(state.last) : state.hi;
  const sources = hi < state.lo ? [] : partitionsOf(ctx, state.types);
  const merged = await new MergedReader(sources.map((source) => rangeReader(source, state.lo, hi)), (m) => m.id, true).take(query.limit + 1);
  const page = merged.slice(0, query.limit);
  const more = merged.length > query.limit;
  return {
    meta: { iterator: more ? await sealIterator(ctx, { ...state, last: page.at(-1)!.id }) : null },
    data: page.map(toWebhookMessage),
  };
}

interface Source {
  index?: 'gsi2';
  partition: string;
}

const partitionsOf = (ctx: Ctx, types: string[]): Source[] =>
  types.length === 0
    ? messagesPartitions(ctx).map((partition) => ({ partition }))
    : types.flatMap((type) => messagesByTypePartitions(ctx, type).map((partition) => ({ index: 'gsi2' as const, partition })));

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

function rangeReader({ index, partition }: Source, lo: string, hi: string): PageReader<MessageItem> {
  const [pk, sk] = index ? ['gsi2pk', 'gsi2sk'] : ['pk', 'sk'];
  return async (limit, cursor) => {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        ...(index && { IndexName: index }),
        KeyConditionExpression: `${pk} = :p AND ${sk} BETWEEN :lo AND :hi`,
        ExpressionAttributeValues: { ':p': partition, ':lo': lo, ':hi': hi },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: cursor,
      }),
    );
    return { items: (page.Items ?? []) as MessageItem[], cursor: page.LastEvaluatedKey };
  };
}
