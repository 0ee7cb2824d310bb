import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client';
import { bucketsFrom, dueBucketOf, DUE_SHARDS, duePartition, LATE_SHARDS, latePartition, nextBucket } from '../../db/due-keys';
import { scheduleCursorKey, type Key } from '../../db/keys';
import { writeUnlessDone } from '../../db/transactions';
import { logger } from '../../observability/logger';
import { duePages, upToKey, type DueEntry } from './due-index';

/**
 * How far behind `now` a run leaves its cursor, so that it reads that window again next run: an item written due
 * less than LATE_AFTER_MS ago (shared/db/due-keys.ts) lands in its bucket, possibly behind where a run already read,
 * and shows in the index only once its transaction committed and the index caught up. 3 minutes leaves 2 for that
 * (a transaction, index propagation, clocks that differ). A re-read item is sent again within the queue's 5-minute
 * deduplication window (3 minutes + the minute between runs), so SQS drops the copy.
 */
export const DUE_REREAD_MS = 3 * 60_000;
/** Where a cursor that does not exist yet starts (the first run on a stack, or of a new cursor). */
export const FIRST_RUN_LOOKBACK_MS = 24 * 3_600_000;

/** What one run reads at most: items (the rest next run), and buckets per shard (a cursor far behind catches up). */
export interface RunLimits {
  items: number;
  buckets: number;
}
/**
 * 300,000 items: 30,000 SendMessageBatch calls, 16 in flight, ≈ 40 s of the run's 5 minutes, 5,000 items a second
 * drained from a backlog. 2 buckets: the year the cursor is in and the next, 32 Queries; a cursor years behind (a
 * stack left off) catches up a year a run.
 */
export const RUN_LIMITS: RunLimits = { items: 300_000, buckets: 2 };

/** The scheduled run's cursor (`OPS#SCHEDULE` / `scheduled-work`); tests keep their own. */
export const SCHEDULED_RUN_CURSOR = 'scheduled-work';

/** Where a shard's next read starts: its sort keys from `from` on, after the entry `after` if the last run stopped there. */
interface Position {
  from: string;
  after?: DueEntry;
}

interface CursorItem extends Key {
  _type: 'due_cursor';
  version: number;
  /** By shard number. */
  positions: Record<string, Position>;
  updated_at: string;
}

const later = (a: string, b: string): string => (a > b ? a : b);

/**
 * What came due since the cursor `name` last moved, page by page: the late partitions whole (items written already
 * due, usually none), then each shard's buckets from its position to now, one Query of a key range each. Once the caller has taken
 * every page (sent them: a caller that throws leaves the cursor where it was, and the next run reads them again), the
 * cursor moves to where this run stopped, at most DUE_REREAD_MS before `now`. A run that stops at `limits` leaves the
 * rest to the next one. The cursor is written on the condition that no other run moved it meanwhile (a run that
 * outlived its lease): the loser's reading is simply done again.
 */
export async function* dueSinceCursor(name: string, now: Date, limits: RunLimits = RUN_LIMITS): AsyncGenerator<DueEntry[]> {
  const stored = (await db.send(new GetCommand({ TableName: tableName(), Key: scheduleCursorKey(name), ConsistentRead: true }))).Item as CursorItem | undefined;
  const to = upToKey(now);
  const reread = new Date(now.getTime() - DUE_REREAD_MS).toISOString();
  const first = new Date(now.getTime() - FIRST_RUN_LOOKBACK_MS).toISOString();
  let left = limits.items;
  const take = () => left;

  // Late items are read whole every run: they are due, and leave the index once their work is done. Half the run at most.
  let lateLeft = Math.ceil(limits.items / 2);
  for (let shard = 0; shard < LATE_SHARDS && lateLeft > 0; shard++) {
    for await (const page of duePages(latePartition(shard), '', to, undefined, () => Math.min(lateLeft, left))) {
      [left, lateLeft] = [left - page.length, lateLeft - page.length];
      if (page.length > 0) yield page;
      if (lateLeft <= 0) break;
    }
  }

  const positions: Record<string, Position> = { ...stored?.positions };
  for (let shard = 0; shard < DUE_SHARDS && left > 0; shard++) {
    const at = positions[shard] ?? { from: first };
    const buckets = bucketsFrom(dueBucketOf(at.from), dueBucketOf(now.toISOString()), limits.buckets);
    let last: DueEntry | undefined;
    reading: for (const [i, bucket] of buckets.entries()) {
      for await (const page of duePages(duePartition(bucket, shard), i === 0 ? at.from : bucket, to, i === 0 ? at.after : undefined, take)) {
        left -= page.length;
        last = page.at(-1) ?? last;
        if (page.length > 0) yield page;
        if (left <= 0) break reading;
      }
    }
    positions[shard] = left <= 0 && last
      // Stopped by the run's limit: exactly after its last entry, unless that is in the re-read window.
      ? String(last.gsi4sk) < reread ? { from: String(last.gsi4sk), after: last } : { from: later(at.from, reread) }
      : buckets.at(-1)! < dueBucketOf(now.toISOString())
        ? { from: nextBucket(buckets.at(-1)!) } // stopped by the buckets a run reads: the next one, next run
        : { from: later(at.from, reread) };
  }

  const item: CursorItem = { ...scheduleCursorKey(name), _type: 'due_cursor', version: (stored?.version ?? 0) + 1, positions, updated_at: now.toISOString() };
  const moved = await writeUnlessDone(
    db.send(new PutCommand({
      TableName: tableName(),
      Item: item,
      ...(stored
        ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': stored.version } }
        : { ConditionExpression: 'attribute_not_exists(pk)' }),
    })),
  );
  if (!moved) logger.warn('due cursor not moved: another run moved it meanwhile', { cursor: name });
}
