import type { Ctx } from '../context';

/**
 * The scheduling index (gsi4) is keyed by time, not by workspace: an item due at `t` sits in partition
 * `DUE#<year of t>#<shard>`, sort key `<t>#<kind>#<id>[#<group>]`, so the scheduler reads the items that came due
 * since its last run with one Query of a sort-key range per shard of each year bucket it spans, never a scan
 * (docs/scheduled-work.md, "The scheduling index"). The item's own key still begins with its workspace; only this
 * operator-level index spans workspaces.
 *
 * Why a year and not a minute: a Query of a key range reads only the entries in it, so a finer bucket reads nothing
 * less; it only costs more Queries (16 × 0.5 read units a bucket, found or not) to cross time nobody ran in: a day
 * without a run is 1,440 minute buckets but no more than 2 year buckets, and a test moving its clock five years
 * ahead reads 6. Nor does a finer bucket spread the heat that matters: every renewal moves its entry to its next
 * billing date, so a billing day writes one instant of next month whatever the bucket's size; the shards spread it.
 *
 * DUE_SHARDS: a renewal moves its entry from one partition to another (2 write units, an entry is < 1 KB): 16 shards
 * take 16 × 1,000 / 2 = 8,000 renewals a second due at one instant before a partition throttles, five times a
 * workspace's billing-day ceiling (docs/scale.md). A run queries each shard of a bucket: 16 × 0.5 = 8 read units,
 * whatever is scheduled.
 */
export const DUE_SHARDS = 16;

/**
 * An item written already due by more than this (a subscription backdated, a renewal computed late, a retry whose
 * time has passed) goes to the late partitions `DUE#LATE#<shard>` instead: the scheduler may already have read past
 * its due time in its bucket. Items due later than that are found in their bucket by the runs' re-read window
 * (DUE_REREAD_MS in shared/domain/schedules/due-cursor.ts), which is longer than this by the time a write takes to
 * show in the index.
 */
export const LATE_AFTER_MS = 60_000;
/** Late writes are rare (the scheduler reads these partitions whole every run): 4 shards. */
export const LATE_SHARDS = 4;

/** The bucket of an ISO time (or of a sort key, which begins with one): its UTC year, `yyyy`. */
export const dueBucketOf = (iso: string): string => iso.slice(0, 4);
/** The buckets from `first` to `last`, both included, at most `most`. */
export function bucketsFrom(first: string, last: string, most = Infinity): string[] {
  const buckets: string[] = [];
  for (let year = Number(first); String(year) <= last && buckets.length < most; year += 1) buckets.push(String(year));
  return buckets;
}
export const nextBucket = (bucket: string): string => String(Number(bucket) + 1);

/** FNV-1a of the id: a stable shard whatever the runtime. */
export function shardOf(id: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return hash % shards;
}

const two = (n: number): string => String(n).padStart(2, '0');
export const duePartition = (bucket: string, shard: number): string => `DUE#${bucket}#${two(shard)}`;
export const latePartition = (shard: number): string => `DUE#LATE#${two(shard)}`;
/**
 * A test-clock workspace's own partition (docs/test-clocks.md): its work comes due on its clock, not the real time,
 * so the scheduler reads it up to that clock's time, and an advance reads it at once.
 */
export const clockPartition = (workspaceId: string): string => `DUE#CLOCK#${workspaceId}`;

/**
 * Puts an item in the scheduling index: time-driven work of `kind` is due on it at `dueAt`. Work of one `group` is
 * run by one worker at a time (the queue's message group): the renewals of an invoicing entity, which all take numbers
 * from its one counter. Without a group, each item is its own.
 */
export function dueIndexKeys(ctx: Ctx, dueAt: string, kind: string, id: string, group?: string): { gsi4pk: string; gsi4sk: string } {
  const late = Date.parse(dueAt) < ctx.clock.now().getTime() - LATE_AFTER_MS;
  const partition = late ? latePartition(shardOf(id, LATE_SHARDS)) : duePartition(dueBucketOf(dueAt), shardOf(id, DUE_SHARDS));
  return {
    gsi4pk: ctx.testClock ? clockPartition(ctx.workspaceId) : partition,
    gsi4sk: `${dueAt}#${kind}#${id}${group ? `#${group}` : ''}`,
  };
}
