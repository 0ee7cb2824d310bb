import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../context';
import { db, tableName } from './client';
import { batchGet } from './batch-get';
import { counterWriteKey, isSingleItem, readCounter } from './counters';
import { listPartitions, parentListPartition, type EntityType, type Key } from './keys';
import { MergedReader, type PageReader } from './shards';

export { batchGet };

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
  [sortKey: string]: unknown;
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

/** Where a list's entries are: an index, its partitions (one, or a sharded list's), and the counter of its total. */
interface Source {
  index: 'gsi1' | 'gsi3';
  partitionKey: string;
  sortKey: string;
  partitions: string[];
  counter: string;
  /** Index keys sort by creation: read them backwards for newest first. */
  newestFirst?: boolean;
}

const listSource = (ctx: Ctx, type: EntityType): Source => ({ index: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', partitions: listPartitions(ctx, type), counter: type });

const parentSource = (ctx: Ctx, type: EntityType, parent: { field: string; value: string }): Source => ({
  index: 'gsi3',
  partitionKey: 'gsi3pk',
  sortKey: 'gsi3sk',
  partitions: [parentListPartition(ctx, type, parent.field, parent.value)],
  counter: parentCounter(type, parent.field, parent.value),
});

export const parentCounter = (type: EntityType, field: string, value: string) => `${type}#${field}=${value}`;

async function readIndexWindow(source: Source, skip: number, take: number): Promise<Key[]> {
  if (take === 0) return [];
  const entries = await indexEntries(source, false).take(skip + take);
  return entries.slice(skip).map(({ pk, sk }) => ({ pk, sk }));
}

async function scanIndexFiltered(
  source: Source,
  { skip, take }: PageRequest,
  filter: (fields: ListFields) => boolean,
): Promise<[Key[], { total: number; approximate: boolean }]> {
  const keys: Key[] = [];
  let matched = 0;
  let readPastPage = 0;
  const entries = indexEntries(source, source.index === 'gsi1');
  do {
    for (const entry of await entries.take(INDEX_PAGE)) {
      if (matched >= skip + take) readPastPage += 1;
      if (!filter(entry.lf ?? {})) continue;
      if (matched >= skip && matched < skip + take) keys.push({ pk: entry.pk, sk: entry.sk });
      matched += 1;
    }
  } while (!entries.exhausted && readPastPage < COUNT_READ_LIMIT);
  return [keys, { total: matched, approximate: !entries.exhausted }];
}

/** The list's index entries in its order, its partitions merged (shards.ts; one partition reads as before). */
function indexEntries(source: Source, withFields: boolean): MergedReader<IndexEntry> {
  const read = (partition: string): PageReader<IndexEntry> => async (limit, cursor) => {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: source.index,
        KeyConditionExpression: `${source.partitionKey} = :p`,
        ExpressionAttributeValues: { ':p': partition },
        ProjectionExpression: ['pk', 'sk', source.sortKey, ...(withFields ? ['lf'] : [])].join(', '),
        ScanIndexForward: !source.newestFirst,
        Limit: Math.min(limit, INDEX_PAGE),
        ExclusiveStartKey: cursor,
      }),
    );
    return { items: (page.Items ?? []) as IndexEntry[], cursor: page.LastEvaluatedKey };
  };
  return new MergedReader(source.partitions.map(read), (entry) => String(entry[source.sortKey]), !!source.newestFirst);
}

/**
 * The counter update that goes in the same transaction as the inserts (+n) or the removals (-n), on the counter's
 * item or one of its shards (counters.ts). With `max`, an insert fails its condition when the workspace would hold
 * more than that many (single-item counters only).
 */
export function counterUpdate(ctx: Ctx, type: EntityType | string, delta: number, max?: number) {
  if (max !== undefined && !isSingleItem(ctx, type)) throw new Error(`counter ${type} is sharded: it cannot hold a maximum`);
  return {
    Update: {
      TableName: tableName(),
      Key: counterWriteKey(ctx, type),
      UpdateExpression: 'ADD #total :d',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':d': delta, ...(max !== undefined && { ':max': max - delta + 1 }) },
      ...(max !== undefined && { ConditionExpression: 'attribute_not_exists(#total) OR #total < :max' }),
    },
  };
}
