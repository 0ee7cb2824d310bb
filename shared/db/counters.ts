import { randomInt } from 'node:crypto';
import type { Ctx } from '../context';
import { counterKey, counterShardKey, type Key } from './keys';
import { batchGet } from './batch-get';

/**
 * Where a counter's value lives. Most counters are one item of the workspace's counter partition
 * (`WS#<ws>#COUNTER` / `<counter>`). Those that every create of a busy type moves would put one item, and one
 * partition, in every such transaction (DynamoDB runs one transaction at a time on an item, ~40/s): they are
 * spread instead, over shard items of their own partitions that an increment picks at random and a read sums,
 * together with the old single item (which keeps what it counted before: no migration). docs/operations.md.
 *
 * - workspace totals of invoices (and credit notes), subscriptions, customers and emails (one per issued invoice):
 *   COUNTER_SHARDS shards, so each takes under 1 % of the creations and together ~5,000 transactions/s (read: one
 *   BatchGetItem per 100 items);
 * - a customer's invoice count (every invoice moves it): one item, in its own partition rather than the
 *   workspace's counter partition that every customer's shared.
 *
 * Counters with a maximum (endpoints, aggregators) and numbering counters (quotes) stay single items: their
 * condition needs the one value.
 */
export const COUNTER_SHARDS = 128;
const SHARDED_TOTALS: ReadonlySet<string> = new Set(['INV', 'SUB', 'CUS', 'EML']);
const OWN_PARTITION = /^INV#customer_id=/;

/** Every item whose `total`s add up to the counter: the single item first, then its shards. */
export function counterPlaces(ctx: Ctx, counter: string): Key[] {
  const shards = SHARDED_TOTALS.has(counter) ? COUNTER_SHARDS : OWN_PARTITION.test(counter) ? 1 : 0;
  return [counterKey(ctx, counter), ...Array.from({ length: shards }, (_, shard) => counterShardKey(ctx, counter, shard))];
}

/** The item an update of the counter moves: the single item, or one shard at random. */
export function counterWriteKey(ctx: Ctx, counter: string): Key {
  const places = counterPlaces(ctx, counter);
  return places.length === 1 ? places[0]! : places[1 + randomInt(places.length - 1)]!;
}

/** True when the counter is one item (a condition on its value, such as a maximum, can hold). */
export const isSingleItem = (ctx: Ctx, counter: string): boolean => counterPlaces(ctx, counter).length === 1;

/** The counter's value: its items summed (one BatchGetItem). */
export async function readCounter(ctx: Ctx, counter: string, consistent = false): Promise<number> {
  const items = await batchGet(counterPlaces(ctx, counter), consistent);
  return items.reduce((sum, item) => sum + Number(item.total ?? 0), 0);
}
