import { clock as processClock } from '../../clock';
import { tableName } from '../../db/client';
import { clockPartition } from '../../db/due-keys';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict } from '../../errors';
import { duePages, upToKey, type DueEntry } from '../schedules/due-index';
import { dueItemOf, type DueItem } from '../schedules/due-item';
import { advanceWorkKey, writeClock } from './advance';
import { ADVANCE_HOLD_MS } from './manage';
import { readWorkspaceRecord, type StoredTestClock } from './test-clock';

/** What one advance runs at most (a test workspace's year of renewals, dunning and expiries is far less). */
export const MOST_RUNS_PER_ADVANCE = 5_000;

/** The worker's batch runner (runDueBatch), passed in: it also runs this work, so importing it would be a cycle. */
export type RunBatch = (items: readonly DueItem[]) => Promise<{ item: DueItem; error: unknown }[]>;

const dueTimeOf = (entry: DueEntry): string => String(entry.gsi4sk).split('#')[0]!;
const entryId = (entry: DueEntry): string => `${String(entry.pk)}\n${String(entry.sk)}\n${String(entry.gsi4sk)}`;
const holdUntil = () => processClock.now().getTime() + ADVANCE_HOLD_MS;
const READY = { status: 'ready', holder: undefined, advancing_to: undefined, held_until: undefined } as const;

/**
 * The due work an advance hands over (advance.ts), run by the due-work worker: moves the clock to its `advancing_to`,
 * running on the way every piece of the workspace's scheduled work that comes due, in the order it comes due and each
 * at its own time: the clock stops at each due time, the work runs there (`runBatch`, the worker's own) and may
 * schedule more (the next renewal), which the walk then finds in turn. It ends `ready` at the target, or where work
 * failed or the run limit was reached (logged; the scheduled run retries failed work at the clock's time, and
 * advancing again goes on). Every step is written only while `holder` still holds the clock, so a redelivery after a
 * crash goes on from where the clock is, and work of an advance that no longer holds it (deleted, its hold lapsed and
 * taken by another) does nothing.
 */
export async function runTestClockAdvance(workspace: string, holder: string, runBatch: RunBatch): Promise<void> {
  const clock = (await readWorkspaceRecord(workspace))?.test_clock;
  if (clock?.status !== 'advancing' || clock.holder !== holder || !clock.advancing_to) return dropWork(workspace, holder);
  try {
    await walk(workspace, clock, clock.advancing_to, runBatch);
  } catch (error) {
    if (error instanceof Conflict) return dropWork(workspace, holder); // the clock was taken from this advance
    throw error;
  }
}

async function walk(workspace: string, clock: StoredTestClock, target: string, runBatch: RunBatch): Promise<void> {
  // Finishing also removes the work item, in the same transaction: a redelivery then finds nothing to do.
  const finish = (state: StoredTestClock, change: Partial<StoredTestClock>) => writeClock(workspace, state, { ...change, ...READY }, 'step', [removeWork(workspace, clock.holder!)]);
  let state = clock;
  const seen = new Set<string>();
  let runs = 0;
  for (;;) {
    const fresh = (await dueEntries(workspace, target)).filter((e) => !seen.has(entryId(e)));
    if (fresh.length === 0) break;
    const at = [state.frozen_time, dueTimeOf(fresh[0]!)].sort().at(-1)!;
    const batch = fresh.filter((e) => dueTimeOf(e) <= at);
    state = await writeClock(workspace, state, { frozen_time: at, held_until: holdUntil() }, 'step');
    for (const entry of batch) seen.add(entryId(entry));
    const failed = await runBatch(batch.map(dueItemOf).filter((i): i is DueItem => !!i));
    runs += batch.length;
    if (failed.length > 0 || runs > MOST_RUNS_PER_ADVANCE) {
      await finish(state, {});
      console.error(JSON.stringify({
        level: 'error', workspace, test_clock: clock.id, stopped_at: at, target,
        error: failed.length > 0 ? `${failed.length} piece(s) of scheduled work due then failed (${String(failed[0]!.error)})` : `more than ${MOST_RUNS_PER_ADVANCE} pieces of scheduled work in one advance`,
      }));
      return;
    }
  }
  await finish(state, { frozen_time: target });
}

/** The workspace's scheduled work due up to `to`, in due order (its own partition of the scheduling index). */
async function dueEntries(workspaceId: string, to: string): Promise<DueEntry[]> {
  const entries: DueEntry[] = [];
  for await (const page of duePages(clockPartition(workspaceId), '', upToKey(new Date(to)))) entries.push(...page);
  return entries;
}

/** Removes this advance's work item, not a later advance's that replaced it. */
const removeWork = (workspace: string, holder: string): TransactItem => ({
  Delete: { TableName: tableName(), Key: advanceWorkKey(workspace), ConditionExpression: 'attribute_not_exists(pk) OR holder = :holder', ExpressionAttributeValues: { ':holder': holder } },
});

async function dropWork(workspace: string, holder: string): Promise<void> {
  await transactWrite([removeWork(workspace, holder)]).catch((error) => {
    if (!(error instanceof ConditionFailed)) throw error;
  });
}
