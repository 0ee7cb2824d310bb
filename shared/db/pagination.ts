import { BatchGetCommand, GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../context';
import { db, tableName } from './client';
import { counterKey, listPartition, type EntityType, type Key } from './keys';

export interface ListFields {
  [field: string]: string | number | boolean | null | undefined;
}

export interface PageRequest {
  take: number;
  skip: number;
  /** Keeps an index entry when true; filters see only the entry's list fields (`lf`). */
  filter?: (fields: ListFields) => boolean;
}

export interface Page<T> {
  meta: { total: number; taken: number; skipped: number; approximateCount: boolean };
  data: T[];
}

/** A filtered list counts its matches up to this many index entries past the page, then says approximateCount. */
const COUNT_READ_LIMIT = 10_000;
const INDEX_PAGE = 1_000;

interface IndexEntry extends Key {
  lf?: ListFields;
}

/**
 * Offset pagination over the list index, ordered by creation (oldest first, so offsets stay stable while
 * items are added). Skipping reads index entries only (keys and list fields); the page's items are then
 * fetched in one BatchGetItem. `total` comes from the maintained counter when there is no filter.
 */
export async function listPage<Item, T>(
  ctx: Ctx,
  type: EntityType,
  request: PageRequest,
  toResource: (item: Item) => T,
): Promise<Page<T>> {
  const { take, skip, filter } = request;
  const [keys, total] = filter
    ? await scanIndexFiltered(ctx, type, request, filter)
    : await Promise.all([readIndexWindow(ctx, type, skip, take), readCounter(ctx, type)]).then(
        ([window, counted]) => [window, { total: counted, approximate: false }] as const,
      );
  const items = await batchGet(keys);
  return {
    meta: { total: total.total, taken: items.length, skipped: skip, approximateCount: total.approximate },
    data: (items as Item[]).map((item) => toResource(item)),
  };
}

async function readIndexWindow(ctx: Ctx, type: EntityType, skip: number, take: number): Promise<Key[]> {
  if (take === 0) return [];
  const wanted = skip + take;
  const entries: IndexEntry[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await queryIndex(ctx, type, Math.min(wanted - entries.length, INDEX_PAGE), cursor, false);
    entries.push(...((page.Items ?? []) as IndexEntry[]));
    cursor = page.LastEvaluatedKey;
  } while (cursor && entries.length < wanted);
  return entries.slice(skip, wanted).map(({ pk, sk }) => ({ pk, sk }));
}

async function scanIndexFiltered(
  ctx: Ctx,
  type: EntityType,
  { skip, take }: PageRequest,
  filter: (fields: ListFields) => boolean,
): Promise<[Key[], { total: number; approximate: boolean }]> {
  const keys: Key[] = [];
  let matched = 0;
  let readPastPage = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await queryIndex(ctx, type, INDEX_PAGE, cursor, true);
    for (const entry of (page.Items ?? []) as IndexEntry[]) {
      if (matched >= skip + take) readPastPage += 1;
      if (!filter(entry.lf ?? {})) continue;
      if (matched >= skip && matched < skip + take) keys.push({ pk: entry.pk, sk: entry.sk });
      matched += 1;
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor && readPastPage < COUNT_READ_LIMIT);
  return [keys, { total: matched, approximate: cursor !== undefined }];
}

function queryIndex(
  ctx: Ctx,
  type: EntityType,
  limit: number,
  cursor: Record<string, unknown> | undefined,
  withFields: boolean,
): Promise<QueryCommandOutput> {
  return db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :p',
      ExpressionAttributeValues: { ':p': listPartition(ctx, type) },
      ProjectionExpression: withFields ? 'pk, sk, lf' : 'pk, sk',
      Limit: limit,
      ExclusiveStartKey: cursor,
    }),
  );
}

async function readCounter(ctx: Ctx, type: EntityType): Promise<number> {
  const result = await db.send(new GetCommand({ TableName: tableName(), Key: counterKey(ctx, type) }));
  return Number(result.Item?.total ?? 0);
}

/** Fetches items by key, keeping the order of `keys` (BatchGetItem returns them in any order). */
async function batchGet(keys: Key[]): Promise<Record<string, unknown>[]> {
  if (keys.length === 0) return [];
  const found = new Map<string, Record<string, unknown>>();
  let pending: Key[] = keys;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
    const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
    for (const item of result.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
    pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
  }
  return keys.map((k) => found.get(`${k.pk}|${k.sk}`)).filter((item): item is Record<string, unknown> => !!item);
}

/**
 * The counter update that goes in the same transaction as the insert (+1) or the removal (-1). With `max`, the
 * insert fails its condition once the workspace holds that many.
 */
export const counterUpdate = (ctx: Ctx, type: EntityType, delta: 1 | -1, max?: number) => ({
  Update: {
    TableName: tableName(),
    Key: counterKey(ctx, type),
    UpdateExpression: 'ADD #total :d',
    ExpressionAttributeNames: { '#total': 'total' },
    ExpressionAttributeValues: { ':d': delta, ...(max !== undefined && { ':max': max }) },
    ...(max !== undefined && { ConditionExpression: 'attribute_not_exists(#total) OR #total < :max' }),
  },
});
