import { createHash } from 'node:crypto';
import { chunksOf, eachLimited } from '../../concurrency';
import { bucketsFrom, dueBucketOf, DUE_SHARDS, duePartition, LATE_AFTER_MS, LATE_SHARDS, latePartition } from '../../db/due-keys';
import { workspaceOf } from '../../db/keys';
import type { RunLimits } from './due-cursor';
import { duePages, upToKey } from './due-index';

/**
 * One piece of time-driven work, as the sparse scheduling index (gsi4) names it: the item's keys and its
 * `gsi4sk` = `<due at>#<kind>#<id>[#<group>]` (its partition, a year and a shard: shared/db/due-keys.ts). It is the queue's message: a worker does `kind` on `id` of `workspace`.
 */
export interface DueItem {
  workspace: string;
  kind: string;
  id: string;
  pk: string;
  sk: string;
  /** The item's `gsi4sk` when it was found: the same due date found twice is the same piece of work. */
  due: string;
  /** Work that must not run beside others of the same group (an invoicing entity's renewals), if any. */
  group?: string;
}

/** The due item an index entry names, or undefined for an entry that names no work. */
export function dueItemOf(entry: Record<string, unknown>): DueItem | undefined {
  const pk = String(entry.pk ?? '');
  const due = String(entry.gsi4sk ?? '');
  const [, kind, id, group] = due.split('#');
  const workspace = workspaceOf(pk);
  if (!kind || !id || !workspace) return undefined;
  return { workspace, kind, id, pk, sk: String(entry.sk ?? ''), due, ...(group && { group }) };
}

/** The same item due at the same date gives the same id: the FIFO queue drops a copy sent within 5 minutes. */
export const deduplicationId = (item: DueItem): string => createHash('sha256').update(`${item.pk}\n${item.sk}\n${item.due}`).digest('hex');

/**
 * SQS FIFO hands a message group to one worker at a time. Each item is its own group, so two workers never run it at
 * once; items of one `group` share theirs: an invoicing entity's renewals are billed by one worker at a time, in
 * batches numbered together, rather than by many racing on the entity's numbering counter (docs/scheduled-work.md).
 */
export const groupId = (item: DueItem): string =>
  createHash('sha256').update(item.group ? `${item.workspace}\ngroup\n${item.group}` : `${item.pk}\n${item.sk}`).digest('hex');

/** What a run reads: by default what came due since the scheduled run's cursor; tests name their own, or workspaces. */
export interface DueFilter {
  /**
   * Every item due at `now` in these workspaces, however long ago, and no cursor: tests sharing one table move their
   * own clocks, forward and back, so no cursor fits them all (findDueItems).
   */
  workspaces?: ReadonlySet<string>;
  /** The cursor read from and moved (default SCHEDULED_RUN_CURSOR), and what one run reads at most. */
  cursor?: string;
  limits?: RunLimits;
}

/** The first bucket a run limited to workspaces reads: an item is in its due bucket only if written at most LATE_AFTER_MS before it. */
const FIRST_BUCKET = dueBucketOf(new Date(Date.now() - LATE_AFTER_MS).toISOString());

/**
 * Every item due at `now` in `only.workspaces`, from the late partitions and every bucket since this process started
 * (its clock never goes back further: an item due before its writing went to the late partitions), each shard one
 * Query: the tests' and the benchmark's view, not the scheduler's (dueSinceCursor). Pages of 100.
 */
export async function* findDueItems(now: Date, only: { workspaces: ReadonlySet<string> }): AsyncGenerator<DueItem[]> {
  const to = upToKey(now);
  const partitions = [
    ...Array.from({ length: LATE_SHARDS }, (_, shard) => latePartition(shard)),
    ...bucketsFrom(FIRST_BUCKET, dueBucketOf(now.toISOString())).flatMap((bucket) => Array.from({ length: DUE_SHARDS }, (_, shard) => duePartition(bucket, shard))),
  ];
  const found: DueItem[] = [];
  await eachLimited(partitions, 24, async (partition) => {
    for await (const page of duePages(partition, '', to)) {
      found.push(...page.map(dueItemOf).filter((i): i is DueItem => !!i && only.workspaces.has(i.workspace)));
    }
  });
  for (const page of chunksOf(found, 100)) yield page;
}
