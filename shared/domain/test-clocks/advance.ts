import { randomUUID } from 'node:crypto';
import { clock as processClock } from '../../clock';
import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { clockPartition } from '../../db/due-keys';
import { outsideEffect } from '../../db/effect-claim';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict, InvalidRequest, ServiceUnavailable } from '../../errors';
import { duePages, upToKey, type DueEntry } from '../schedules/due-index';
import { dueItemOf, type DueItem } from '../schedules/due-item';
import { runDueBatch } from '../schedules/run-due';
import { ADVANCE_HOLD_MS, isAdvancing, storedTestClock } from './manage';
import { clockRegistryKey, testClockResource, workspaceRecordKey, type StoredTestClock, type TestClock } from './test-clock';

/** What one advance runs at most (a test workspace's year of renewals, dunning and expiries is far less). */
export const MOST_RUNS_PER_ADVANCE = 5_000;

const dueTimeOf = (entry: DueEntry): string => String(entry.gsi4sk).split('#')[0]!;
const entryId = (entry: DueEntry): string => `${String(entry.pk)}\n${String(entry.sk)}\n${String(entry.gsi4sk)}`;
const holdUntil = () => processClock.now().getTime() + ADVANCE_HOLD_MS;

/**
 * Moves the workspace's clock forward to `frozen_time`, running on the way every piece of its scheduled work that
 * comes due, in the order it comes due and each at its own time: the clock stops at each due time, the work runs
 * there (runDueBatch, what the scheduled run's worker runs) and may schedule more (the next renewal), which the walk
 * then finds in turn. One advance at a time: the first takes the clock by a conditional write on its version (a
 * second at once gets 409), holding it while it walks; a crashed one's hold lapses after ADVANCE_HOLD_MS.
 */
export async function advanceTestClock(ctx: Ctx, id: string, body: { frozen_time: string }): Promise<TestClock> {
  const { clock } = await storedTestClock(ctx, id);
  const target = new Date(body.frozen_time).toISOString();
  if (isAdvancing(clock, processClock.now().getTime())) throw advancing();
  if (target <= clock.frozen_time) {
    throw new InvalidRequest(`A test clock only moves forward: frozen_time must be after ${clock.frozen_time}.`, [{ path: '/frozen_time', message: `must be after ${clock.frozen_time}` }]);
  }
  const holder = randomUUID();
  let state = await write(ctx, clock, { status: 'advancing', holder, advancing_to: target, held_until: holdUntil() }, 'take');
  const seen = new Set<string>();
  let runs = 0;
  for (;;) {
    const fresh = (await dueEntries(ctx.workspaceId, target)).filter((e) => !seen.has(entryId(e)));
    if (fresh.length === 0) break;
    const at = [state.frozen_time, dueTimeOf(fresh[0]!)].sort().at(-1)!;
    const batch = fresh.filter((e) => dueTimeOf(e) <= at);
    state = await write(ctx, state, { frozen_time: at, held_until: holdUntil() });
    for (const entry of batch) seen.add(entryId(entry));
    // The work is the scheduled run's, not this request's effect: an Idempotency-Key retry replays the clock instead.
    const failed = await outsideEffect(() => runDueBatch(batch.map(dueItemOf).filter((i): i is DueItem => !!i)));
    runs += batch.length;
    if (failed.length > 0 || runs > MOST_RUNS_PER_ADVANCE) {
      await write(ctx, state, { status: 'ready', holder: undefined, advancing_to: undefined, held_until: undefined });
      throw new ServiceUnavailable(failed.length > 0
        ? `The clock stopped at ${at}: ${failed.length} piece(s) of scheduled work due then failed (${String(failed[0]!.error)}). Advance again to retry.`
        : `The clock stopped at ${at}: more than ${MOST_RUNS_PER_ADVANCE} pieces of scheduled work in one advance. Advance again to go on.`);
    }
  }
  return testClockResource(await write(ctx, state, { frozen_time: target, status: 'ready', holder: undefined, advancing_to: undefined, held_until: undefined }));
}

const advancing = () => new Conflict('The test clock is being advanced by another request; try again once it is ready.', 'test_clock_advancing');

/** The workspace's scheduled work due up to `to`, in due order (its own partition of the scheduling index). */
async function dueEntries(workspaceId: string, to: string): Promise<DueEntry[]> {
  const entries: DueEntry[] = [];
  for await (const page of duePages(clockPartition(workspaceId), '', upToKey(new Date(to)))) entries.push(...page);
  return entries;
}

/**
 * Writes the clock (and the scheduled run's mirror of its time) if it is still as read: the version it had for the
 * advance that takes it, and still held by this advance for its later steps.
 */
async function write(ctx: Ctx, from: StoredTestClock, change: Partial<StoredTestClock>, mode: 'take' | 'step' = 'step'): Promise<StoredTestClock> {
  const next: StoredTestClock = { ...from, ...change, version: from.version + 1 };
  for (const key of ['holder', 'advancing_to', 'held_until'] as const) if (next[key] === undefined) delete next[key];
  const condition = mode === 'take'
    ? { ConditionExpression: 'test_clock.version = :v', ExpressionAttributeValues: { ':v': from.version, ':clock': next } }
    : { ConditionExpression: 'test_clock.holder = :holder', ExpressionAttributeValues: { ':holder': from.holder, ':clock': next } };
  const items: TransactItem[] = [
    { Update: { TableName: tableName(), Key: workspaceRecordKey(ctx.workspaceId), UpdateExpression: 'SET test_clock = :clock', ...condition } },
    { Put: { TableName: tableName(), Item: { ...clockRegistryKey(ctx.workspaceId), _type: 'test_clock_registry', workspace: ctx.workspaceId, frozen_time: next.frozen_time } } },
  ];
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof ConditionFailed && error.index === 0) throw advancing();
    throw error;
  }
  return next;
}
