/**
 * Partition heat, the arithmetic: what a DynamoDB request costs on AWS and where, from the items it reads and writes
 * (DynamoDB Local has no partitions and no throttling, so none of this shows in its timings). Pure functions on
 * marshalled items (AttributeValue maps), unit-tested in test/unit/partition-heat.test.ts; the recorder
 * (heat-recorder.ts) feeds them what the shared client sends and what the table held before and after.
 *
 * DynamoDB's rules, as AWS documents them ("DynamoDB item sizes and formats", "read and write operations", "global
 * secondary indexes"): an item's size is the sum of its attribute names and values; a write costs one unit per KB of
 * the larger of the item before and after (at least 1), two in a transaction; a read one unit per 4 KB (at least 1),
 * half eventually consistent; a Query or Scan is rounded once over all the items it read, before any filter or
 * projection; an index write follows the entry the item has (or had) in the index: one write when it enters, leaves
 * or its projected attributes change, two (a delete and a put) when its index key changes, none otherwise.
 * Assumptions where AWS is silent: a ConditionCheck costs what a transactional write of its item would; index writes
 * are not doubled by a transaction (they are propagated after it). Each partition of a table or index takes at most
 * 1,000 write units/s and 3,000 read units/s; an item takes part in one transaction at a time, ~25 ms each.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { tableDefinition } from '../../shared/db/table-definition';

export type Item = Record<string, AttributeValue>;

/** AWS's per-partition limits and the time one transaction holds an item. */
export const AWS_LIMITS = { partitionWcu: 1_000, partitionRcu: 3_000, transactionMs: 25 } as const;
/** Transactions one item can take part in per second. */
export const ITEM_TRANSACTIONS_PER_SECOND = 1_000 / AWS_LIMITS.transactionMs;

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/** A number's size: 1 byte per two significant digits (leading and trailing zeros trimmed), plus 1. */
export function numberSize(text: string): number {
  const mantissa = text.trim().replace(/^[+-]/, '').split(/e/i)[0]!;
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(digits.length / 2) + 1;
}

/** The size of one attribute value (without its name). */
export function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (value.NS) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS) return value.BS.reduce((sum, b) => sum + b.length, 0);
  // Lists and maps: 3 bytes, and 1 byte per element on top of the element (and, in a map, its name).
  if (value.L) return 3 + value.L.reduce((sum, v) => sum + 1 + valueSize(v), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, v]) => sum + 1 + utf8(name) + valueSize(v), 0);
  throw new Error(`an attribute value of no known type: ${JSON.stringify(value)}`);
}

/** An item's size: its attributes' names and values. */
export const itemSize = (item: Item): number => Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);

const KB = 1024;
/** Write units of one item of `bytes` (the larger of before and after): per KB begun, at least 1; ×2 in a transaction. */
export const writeUnits = (bytes: number, transactional = false): number => Math.max(1, Math.ceil(bytes / KB)) * (transactional ? 2 : 1);
/** Read units of `bytes` read in one go: per 4 KB begun, at least one; half eventually consistent, ×2 in a transaction. */
export const readUnits = (bytes: number, read: 'strong' | 'eventual' | 'transactional'): number =>
  Math.max(1, Math.ceil(bytes / (4 * KB))) * { strong: 1, eventual: 0.5, transactional: 2 }[read];

type IndexDefinition = (typeof tableDefinition.globalIndexes)[number];
export const TABLE = 'table';

/** A unit cost landing on one partition of the table or of an index. */
export interface Touch {
  /** `table`, or the index's name. */
  index: string;
  /** The partition key's value. */
  partition: string;
  wcu: number;
  rcu: number;
}

const keyString = (value: AttributeValue | undefined): string | undefined => value?.S ?? value?.N ?? (value?.B ? Buffer.from(value.B).toString('base64') : undefined);

/** The table partition of an item (or key). */
export const tablePartition = (item: Item): string => keyString(item[tableDefinition.partitionKey]) ?? '?';

/** Identifies an item by its table key. */
export const itemId = (item: Item): string => `${tablePartition(item)} | ${keyString(item[tableDefinition.sortKey]) ?? ''}`;

/** An item's entry in an index (its keys and projected attributes), or undefined when the item is not in it (sparse). */
export function indexEntry(item: Item | undefined, index: IndexDefinition): Item | undefined {
  if (!item) return undefined;
  const partition = item[index.partitionKey];
  const sort = item[index.sortKey];
  if (keyString(partition) === undefined || keyString(sort) === undefined) return undefined;
  if (index.projection.type === 'ALL') return item;
  const names = [tableDefinition.partitionKey, tableDefinition.sortKey, index.partitionKey, index.sortKey, ...(index.projection.type === 'INCLUDE' ? index.projection.attributes : [])];
  return Object.fromEntries(names.filter((n) => item[n] !== undefined).map((n) => [n, item[n]!]));
}

const sameValue = (a: Item, b: Item): boolean => JSON.stringify(Object.entries(a).sort(([x], [y]) => x.localeCompare(y))) === JSON.stringify(Object.entries(b).sort(([x], [y]) => x.localeCompare(y)));

/** The index writes a change of an item (`before` → `after`; undefined: absent) causes in one index. */
export function indexWrites(index: IndexDefinition, before: Item | undefined, after: Item | undefined): Touch[] {
  const old = indexEntry(before, index);
  const now = indexEntry(after, index);
  const touch = (entry: Item, bytes = itemSize(entry)): Touch => ({ index: index.name, partition: keyString(entry[index.partitionKey])!, wcu: writeUnits(bytes), rcu: 0 });
  if (!old && !now) return [];
  if (!old) return [touch(now!)];
  if (!now) return [touch(old)];
  const moved = keyString(old[index.partitionKey]) !== keyString(now[index.partitionKey]) || keyString(old[index.sortKey]) !== keyString(now[index.sortKey]);
  if (moved) return [touch(old), touch(now)];
  return sameValue(old, now) ? [] : [touch(now, Math.max(itemSize(old), itemSize(now)))];
}

/**
 * What writing one item costs, on the table and on every index computed from the table definition: `before` and
 * `after` are the item as the table held it before and after (undefined: absent). A ConditionCheck, or a write whose
 * condition failed, changes nothing and costs its table units alone.
 */
export function writeCost(before: Item | undefined, after: Item | undefined, options: { transactional?: boolean; changed?: boolean } = {}): Touch[] {
  const key = after ?? before;
  const bytes = Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0);
  const table: Touch = { index: TABLE, partition: key ? tablePartition(key) : '?', wcu: writeUnits(bytes, options.transactional), rcu: 0 };
  if (options.changed === false) return [table];
  return [table, ...tableDefinition.globalIndexes.flatMap((index) => indexWrites(index, before, after))];
}

/** What reading items costs: one request's items (a Query's or Scan's, rounded once) spread over their partitions by bytes. */
export function readCost(items: readonly Item[], index: string, read: 'strong' | 'eventual' | 'transactional', partitionOf: (item: Item) => string, emptyPartition = '?'): Touch[] {
  const bytes = new Map<string, number>();
  for (const item of items) bytes.set(partitionOf(item), (bytes.get(partitionOf(item)) ?? 0) + itemSize(item));
  const total = [...bytes.values()].reduce((sum, b) => sum + b, 0);
  const units = readUnits(total, read);
  if (total === 0) return [{ index, partition: items.length ? partitionOf(items[0]!) : emptyPartition, wcu: 0, rcu: units }];
  return [...bytes].map(([partition, b]) => ({ index, partition, wcu: 0, rcu: (units * b) / total }));
}

/** The partition function of an index (or the table) by name. */
export function partitionOfIndex(name: string | undefined): (item: Item) => string {
  const index = tableDefinition.globalIndexes.find((i) => i.name === name);
  return index ? (item) => keyString(item[index.partitionKey]) ?? '?' : tablePartition;
}

/** One recorded request: its touches and, for a transaction, the items it held. */
export interface Operation {
  command: string;
  touches: Touch[];
  /** The items of a transaction (itemId), else undefined. */
  transactionItems?: string[];
}

export interface PartitionLoad {
  index: string;
  partition: string;
  wcu: number;
  rcu: number;
}

export interface Heat {
  units: number;
  operations: number;
  transactions: number;
  /** Every partition touched, hottest (by its share of its limit) first. */
  partitions: PartitionLoad[];
  /** Per unit of work: the hottest partition's write and read units, and the ceiling they set (units of work/s). */
  hottestWrite?: PartitionLoad & { perUnit: number };
  hottestRead?: PartitionLoad & { perUnit: number };
  partitionCeiling: number;
  /** The items in the most transactions, most first (transactions per unit of work and share of all transactions). */
  items: { item: string; transactions: number; share: number; perUnit: number; ceiling: number }[];
  /** Total units over all partitions (what the workload costs, not where). */
  totalWcu: number;
  totalRcu: number;
}

/**
 * A workload's heat: `units` of work (invoices, events…) done by `operations`. The partition ceiling is the units of
 * work per second at which the hottest partition reaches its limit; an item's ceiling, the units of work per second at
 * which it is in a transaction all the time (40 transactions/s).
 */
export function heatOf(operations: readonly Operation[], units: number): Heat {
  const loads = new Map<string, PartitionLoad>();
  const inTransactions = new Map<string, number>();
  let transactions = 0;
  for (const operation of operations) {
    for (const t of operation.touches) {
      const key = `${t.index}\u0000${t.partition}`;
      const load = loads.get(key) ?? { index: t.index, partition: t.partition, wcu: 0, rcu: 0 };
      load.wcu += t.wcu;
      load.rcu += t.rcu;
      loads.set(key, load);
    }
    if (operation.transactionItems) {
      transactions += 1;
      for (const item of new Set(operation.transactionItems)) inTransactions.set(item, (inTransactions.get(item) ?? 0) + 1);
    }
  }
  const heatOfLoad = (l: PartitionLoad) => Math.max(l.wcu / AWS_LIMITS.partitionWcu, l.rcu / AWS_LIMITS.partitionRcu);
  const partitions = [...loads.values()].sort((a, b) => heatOfLoad(b) - heatOfLoad(a));
  const most = (by: 'wcu' | 'rcu') => partitions.filter((p) => p[by] > 0).sort((a, b) => b[by] - a[by])[0];
  const write = most('wcu');
  const read = most('rcu');
  const perUnit = (n: number) => (units > 0 ? n / units : Infinity);
  const ceiling = Math.min(write ? AWS_LIMITS.partitionWcu / perUnit(write.wcu) : Infinity, read ? AWS_LIMITS.partitionRcu / perUnit(read.rcu) : Infinity);
  const items = [...inTransactions]
    .sort((a, b) => b[1] - a[1])
    .map(([item, count]) => ({ item, transactions: count, share: count / transactions, perUnit: perUnit(count), ceiling: ITEM_TRANSACTIONS_PER_SECOND / perUnit(count) }));
  return {
    units,
    operations: operations.length,
    transactions,
    partitions,
    ...(write && { hottestWrite: { ...write, perUnit: perUnit(write.wcu) } }),
    ...(read && { hottestRead: { ...read, perUnit: perUnit(read.rcu) } }),
    partitionCeiling: ceiling,
    items,
    totalWcu: partitions.reduce((sum, p) => sum + p.wcu, 0),
    totalRcu: partitions.reduce((sum, p) => sum + p.rcu, 0),
  };
}
