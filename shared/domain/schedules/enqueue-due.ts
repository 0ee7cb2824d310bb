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

/** The FIFO queue drops a message whose deduplication id it saw in the last 5 minutes: a tick resends less than that. */
export const TICK_LOOKBACK_MS = 4 * 60_000;
/** Every this many minutes a tick sweeps everything due (an item whose earlier sends failed, or waited in the queue longer). */
export const SWEEP_EVERY_MINUTES = 15;

/**
 * What a tick at `now` queues: the items that became due in the last TICK_LOOKBACK_MS (each is sent by about four
 * ticks, and the queue keeps one), or, on a sweep minute, everything due. Without it every tick would resend the whole
 * backlog of a billing day, and a backlog older than the queue's deduplication window would be queued again each minute.
 */
export function tickWindow(now: Date): { since?: Date } {
  const minute = Math.floor(now.getTime() / 60_000);
  return minute % SWEEP_EVERY_MINUTES === 0 ? {} : { since: new Date(now.getTime() - TICK_LOOKBACK_MS) };
}
