import type { Ctx } from '../../context';
import { shardOf } from '../../db/shards';
import type { Delta, Family } from './facts';
import type { CustomerScope } from './plan';

export const REVENUE_DAY = 'revenue_day';
export const CUSTOMER_REVENUE = 'customer_revenue';

/**
 * Items one (family, currency, day, entity) may spread over. A change starts on one of the first ANALYTICS_SPREAD
 * shards, chosen from its id (so no day item is in more than a quarter of a busy entity's transactions), and moves to
 * the next shard when its transaction collides with another's on the item (a hot day): up to ANALYTICS_SHARDS × ~40
 * transactions a second per entity. A read sums whatever shards exist.
 */
export const ANALYTICS_SHARDS = 16;
export const ANALYTICS_SPREAD = 4;

/**
 * A family's partitions in a currency: shard s lives in partition s mod ANALYTICS_SPREAD, so one workspace's changes
 * spread over that many partitions (each takes 1,000 write units a second on AWS: docs/scale.md). Partition 0 keeps
 * the name it always had, so items written before the spread are read as they are.
 */
export const analyticsPartitions = (ctx: Ctx, family: Family, currency: string): string[] =>
  Array.from({ length: ANALYTICS_SPREAD }, (_, part) => analyticsPartition(ctx, family, currency, part));

const analyticsPartition = (ctx: Ctx, family: Family, currency: string, part: number): string =>
  `WS#${ctx.workspaceId}#REV#${family}#${currency}${part === 0 ? '' : `#${part}`}`;

/** `<day>#<entity>#<shard>`: a day's entities and shards sort together, and a range of days is one key range. */
export const analyticsKey = (ctx: Ctx, delta: Delta, shard: number) => ({
  pk: analyticsPartition(ctx, delta.family, delta.currency, shard % ANALYTICS_SPREAD),
  sk: `${delta.day}#${delta.entity}#${String(shard).padStart(2, '0')}`,
});

/** The shard a change starts on: the same for every delivery of the change, spread evenly over changes. */
export const firstShard = (changeId: string): number => shardOf(changeId, ANALYTICS_SPREAD);

/** A customer's MRR in an entity and currency (mrr.ts, CustomerRevenue): in the customer's partition, never hot. */
export const customerRevenueKey = (ctx: Ctx, scope: CustomerScope) => ({
  pk: `WS#${ctx.workspaceId}#REVCUS#${scope.customer}`,
  sk: `${scope.entity}#${scope.currency}`,
});

/**
 * Marks a stream change's chunk of analytics as applied, written in the chunk's own transaction: a retried batch finds
 * it and applies nothing twice. Keyed by the change (spread over partitions), kept two days (the stream keeps 24 h).
 */
export const appliedKey = (ctx: Ctx, changeId: string, chunk: number) => ({ pk: `WS#${ctx.workspaceId}#REVAPPLIED#${changeId}`, sk: `CHUNK#${chunk}` });
export const APPLIED_TTL_SECONDS = 2 * 86_400;

/**
 * What the analytics have counted of a document or subscription: the version (`_version`) of the item they stand for
 * and the change that wrote it. The backfill (backfill.ts) and the stream's first change of an item written before
 * the analytics existed both count the item whole, and only the first to write this counts at all; a change older
 * than what is counted is skipped.
 */
export const countedKey = (sourcePk: string) => ({ pk: `${sourcePk.replace(/^(WS#[^#]+)#/, '$1#REVSEEN#')}`, sk: 'COUNTED' });
export interface Counted {
  version: number;
  change: string;
}
