import { findDueItems, type DueFilter } from './due-item';
import type { DueQueue } from './due-queue';

/**
 * The scheduled function's whole job (DESIGN.md §16): find what is due in the sparse scheduling index and queue it,
 * page by page (workers start on the first page while the scan goes on). It does no work itself, so its run time
 * follows the number of due items, not what they cost. Imports no domain code: its bundle stays small.
 */
export async function enqueueDueWork(now: Date, queue: DueQueue, only?: DueFilter): Promise<{ due: number }> {
  let due = 0;
  for await (const page of findDueItems(now, only)) {
    await queue.send(page);
    due += page.length;
  }
  return { due };
}
