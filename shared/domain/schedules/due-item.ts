import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client';
import { workspaceOf } from '../../db/keys';

/**
 * One piece of time-driven work, as the sparse scheduling index (gsi4) names it: the item's keys and its
 * `gsi4sk` = `<due at>#<kind>#<id>[#<group>]`. It is the queue's message: a worker does `kind` on `id` of `workspace`.
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

/** Limits a run to some workspaces (tests sharing one table move their own clocks), or to items due since a time. */
export interface DueFilter {
  workspaces?: ReadonlySet<string>;
  /** Only items due at or after this time (the scheduled function's ticks between sweeps). */
  since?: Date;
}

/**
 * Every item due at `now` across workspaces, page by page, from the sparse scheduling index alone (only items
 * awaiting time-driven work carry its keys, so this reads pending work, not the table).
 */
export async function* findDueItems(now: Date, only?: DueFilter): AsyncGenerator<DueItem[]> {
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName(),
        IndexName: 'gsi4',
        FilterExpression: only?.since ? 'gsi4sk BETWEEN :since AND :now' : 'gsi4sk <= :now',
        ExpressionAttributeValues: { ':now': `${now.toISOString()}#~`, ...(only?.since && { ':since': only.since.toISOString() }) },
        ExclusiveStartKey: cursor,
      }),
    );
    const items = (page.Items ?? []).map(dueItemOf).filter((i): i is DueItem => !!i && (!only?.workspaces || only.workspaces.has(i.workspace)));
    if (items.length > 0) yield items;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
}
