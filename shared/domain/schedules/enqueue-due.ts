import { dueOnTestClocks } from './clock-due';
import { dueSinceCursor, SCHEDULED_RUN_CURSOR } from './due-cursor';
import { dueItemOf, findDueItems, type DueFilter, type DueItem } from './due-item';
import type { DueQueue } from './due-queue';

/**
 * The pages a run reads: what came due since its cursor and on the test clocks (each workspace's up to its clock's
 * time), or, limited to workspaces, everything due in them.
 */
async function* duePagesOf(now: Date, only?: DueFilter): AsyncGenerator<DueItem[]> {
  if (only?.workspaces) {
    yield* findDueItems(now, { workspaces: only.workspaces });
    return;
  }
  const cursor = only?.cursor ?? SCHEDULED_RUN_CURSOR;
  for await (const page of dueSinceCursor(cursor, now, only?.limits)) {
    yield page.map(dueItemOf).filter((i): i is DueItem => !!i);
  }
  // The stack's run only: a test's own cursor reads its own items (the table's clocks are other tests').
  if (cursor === SCHEDULED_RUN_CURSOR) for await (const page of dueOnTestClocks()) yield page.map(dueItemOf).filter((i): i is DueItem => !!i);
}

/**
 * The scheduled function's whole job (DESIGN.md §16): read what came due since the last run from the scheduling
 * index and queue it, page by page (workers start on the first page while the reading goes on); the cursor moves
 * once every page is sent. It does no work itself, so its run time follows the number of due items, not what they
 * cost, nor what is scheduled. Imports no domain code: its bundle stays small.
 */
export async function enqueueDueWork(now: Date, queue: DueQueue, only?: DueFilter): Promise<{ due: number }> {
  let due = 0;
  for await (const page of duePagesOf(now, only)) {
    if (page.length === 0) continue;
    await queue.send(page);
    due += page.length;
  }
  return { due };
}
