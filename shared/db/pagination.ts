import { BatchGetCommand, GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { chunksOf } from '../concurrency';
import type { Ctx } from '../context';
import { db, tableName } from './client';
import { counterKey, listPartition, parentListPartition, type EntityType, type Key } from './keys';

export interface ListFields {
  [field: string]: string | number | boolean | null | undefined;
}

export interface PageRequest {
  take: number;
  skip: number;
  /** Keeps an index entry when true; filters see only the entry's list fields (`lf`). */
  filter?: (fields: ListFields) => boolean;
  /** Lists only the children of one parent, from the keys-only parent index (`gsi3`) and the parent's counter. */
  parent?: { field: string; value: string };
  /** `-created_at`: newest first; otherwise oldest first. */
  sort?: string;
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
  const { take, skip, filter, parent } = request;
  const source = { ...(parent ? parentSource(ctx, type, parent) : listSource(ctx, type)), newestFirst: request.sort === '-created_at' };
  const [keys, total] = filter
    ? await scanIndexFiltered(source, request, filter)
    : await Promise.all([readIndexWindow(source, skip, take), readCounter(ctx, source.counter)]).then(
        ([window, counted]) => [window, { total: counted, approximate: false }] as const,
      );
  const items = await batchGet(keys);
  return {
    meta: { total: total.total, taken: items.length, skipped: skip, approximateCount: total.approximate },
    data: (items as Item[]).map((item) => toResource(item)),
  };
}

/** Where a list's entries are: an index, its partition, and the counter of its total. */
interface Source {
  index: 'gsi1' | 'gsi3';
  partitionKey: string;
  partition: string;
  counter: string;
  /** Index keys sort by creation: read them backwards for newest first. */
  newestFirst?: boolean;
}

const listSource = (ctx: Ctx, type: EntityType): Source => ({ index: 'gsi1', partitionKey: 'gsi1pk', partition: listPartition(ctx, type), counter: type });

const parentSource = (ctx: Ctx, type: EntityType, parent: { field: string; value: string }): Source => ({
  index: 'gsi3',
  partitionKey: 'gsi3pk',
  partition: parentListPartition(ctx, type, parent.field, parent.value),
  counter: parentCounter(type, parent.field, parent.value),
});

export const parentCounter = (type: EntityType, field: string, value: string) => `${type}#${field}=${value}`;

async function readIndexWindow(source: Source, skip: number, take: number): Promise<Key[]> {
  if (take === 0) return [];
  const wanted = skip + take;
  const entries: IndexEntry[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await queryIndex(source, Math.min(wanted - entries.length, INDEX_PAGE), cursor, false);
    entries.push(...((page.Items ?? []) as IndexEntry[]));
    cursor = page.LastEvaluatedKey;
  } while (cursor && entries.length < wanted);
  return entries.slice(skip, wanted).map(({ pk, sk }) => ({ pk, sk }));
}

async function scanIndexFiltered(
  source: Source,
  { skip, take }: PageRequest,
  filter: (fields: ListFields) => boolean,
): Promise<[Key[], { total: number; approximate: boolean }]> {
  const keys: Key[] = [];
  let matched = 0;
  let readPastPage = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await queryIndex(source, INDEX_PAGE, cursor, source.index === 'gsi1');
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

function queryIndex(source: Source, limit: number, cursor: Record<string, unknown> | undefined, withFields: boolean): Promise<QueryCommandOutput> {
  return db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: source.index,
      KeyConditionExpression: `${source.partitionKey} = :p`,
      ExpressionAttributeValues: { ':p': source.partition },
      ProjectionExpression: withFields ? 'pk, sk, lf' : 'pk, sk',
      ScanIndexForward: !source.newestFirst,
      Limit: limit,
      ExclusiveStartKey: cursor,
    }),
  );
}

async function readCounter(ctx: Ctx, counter: string): Promise<number> {
  const result = await db.send(new GetCommand({ TableName: tableName(), Key: counterKey(ctx, counter) }));
  return Number(result.Item?.total ?? 0);
}

/**
 * Fetches items by key, 100 a BatchGetItem (the calls in parallel), keeping the order of `keys` (BatchGetItem returns
 * them in any order); missing items are left out.
 */
export async function batchGet(keys: Key[], consistent = false): Promise<Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>>();
  await Promise.all(chunksOf(keys, 100).map((chunk) => getChunk(chunk, consistent, found)));
  return keys.map((k) => found.get(`${k.pk}|${k.sk}`)).filter((item): item is Record<string, unknown> => !!item);
}

async function getChunk(keys: Key[], consistent: boolean, found: Map<string, Record<string, unknown>>): Promise<void> {
  let pending: Key[] = keys;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** Math.min(attempt, 6)));
    const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } } }));
    for (const item of result.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
    pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
  }
}

/**
 * The counter update that goes in the same transaction as the inserts (+n) or the removals (-n). With `max`, an
 * insert fails its condition when the workspace would hold more than that many.
 */
export const counterUpdate = (ctx: Ctx, type: EntityType | string, delta: number, max?: number) => ({
  Update: {
    TableName: tableName(),
    Key: counterKey(ctx, type),
    UpdateExpression: 'ADD #total :d',
    ExpressionAttributeNames: { '#total': 'total' },
    ExpressionAttributeValues: { ':d': delta, ...(max !== undefined && { ':max': max - delta + 1 }) },
    ...(max !== undefined && { ConditionExpression: 'attribute_not_exists(#total) OR #total < :max' }),
  },
});
