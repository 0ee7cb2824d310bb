import { randomUUID } from 'node:crypto';
import { clock as processClock } from '../../clock';
import { makeCtx, type Ctx } from '../../context';
import { tableName } from '../../db/client';
import { dueIndexKeys } from '../../db/due-keys';
import { settingKey, type Key } from '../../db/keys';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { Conflict, InvalidRequest } from '../../errors';
import { isAdvancing, storedTestClock } from './manage';
import { clockRegistryKey, testClockResource, workspaceRecordKey, type StoredTestClock, type TestClock } from './test-clock';

/** The kind of due work that walks an advance (shared/domain/test-clocks/advance-run.ts), its id the advance's holder. */
export const TEST_CLOCK_ADVANCE = 'test_clock_advance';

/**
 * How long a queued advance holds the clock before the worker takes it up: the scheduled run reads the work within a
 * minute, and the queue retries a failed receive within minutes (docs/scheduled-work.md). Once the walk runs, each
 * step renews the hold for ADVANCE_HOLD_MS (manage.ts). A hold that lapses (the work dead-lettered) frees the clock.
 */
export const ADVANCE_QUEUED_HOLD_MS = 10 * 60_000;

/** The workspace's one advance work item (`WS#<ws>#SETTING` / `test_clock_advance`): one clock, one advance at a time. */
export const advanceWorkKey = (workspaceId: string): Key => settingKey(makeCtx(workspaceId, 'test-clock'), TEST_CLOCK_ADVANCE);

export const advancing = () => new Conflict('The test clock is being advanced by another request; try again once it is ready.', 'test_clock_advancing');

/**
 * Starts moving the workspace's clock forward to `frozen_time` and answers at once with the clock `advancing`
 * (as Stripe's test clocks do): the walk through the work that comes due on the way is the due-work worker's
 * (advance-run.ts), handed over as one due item, written in the same transaction that takes the clock. This route so
 * loads none of that work's code. One advance at a time: the take is conditioned on the clock's version (a second
 * at once gets 409, as does one while the clock is advancing); the clock is `ready` again once the worker is done.
 */
export async function advanceTestClock(ctx: Ctx, id: string, body: { frozen_time: string }): Promise<TestClock> {
  const { clock } = await storedTestClock(ctx, id);
  const target = new Date(body.frozen_time).toISOString();
  if (isAdvancing(clock, processClock.now().getTime())) throw advancing();
  if (target <= clock.frozen_time) {
    throw new InvalidRequest(`A test clock only moves forward: frozen_time must be after ${clock.frozen_time}.`, [{ path: '/frozen_time', message: `must be after ${clock.frozen_time}` }]);
  }
  const holder = randomUUID();
  const now = processClock.now();
  // Due now in real time (the scheduled run's buckets), not on the clock: the clock's own partition is what the walk reads.
  const work = {
    ...advanceWorkKey(ctx.workspaceId), _type: TEST_CLOCK_ADVANCE, holder,
    ...dueIndexKeys(makeCtx(ctx.workspaceId, ctx.requestId), now.toISOString(), TEST_CLOCK_ADVANCE, holder),
  };
  const taken = await writeClock(ctx.workspaceId, clock, { status: 'advancing', holder, advancing_to: target, held_until: now.getTime() + ADVANCE_QUEUED_HOLD_MS }, 'take', [
    { Put: { TableName: tableName(), Item: work } },
  ]);
  return testClockResource(taken);
}

/**
 * Writes the clock (and the scheduled run's mirror of its time), with `also` in the same transaction, if it is still
 * as read: the version it had for the advance that takes it, and still held by this advance for its later steps.
 */
export async function writeClock(workspaceId: string, from: StoredTestClock, change: Partial<StoredTestClock>, mode: 'take' | 'step', also: TransactItem[] = []): Promise<StoredTestClock> {
  const next: StoredTestClock = { ...from, ...change, version: from.version + 1 };
  for (const key of ['holder', 'advancing_to', 'held_until'] as const) if (next[key] === undefined) delete next[key];
  const condition = mode === 'take'
    ? { ConditionExpression: 'test_clock.version = :v', ExpressionAttributeValues: { ':v': from.version, ':clock': next } }
    : { ConditionExpression: 'test_clock.holder = :holder', ExpressionAttributeValues: { ':holder': from.holder, ':clock': next } };
  const items: TransactItem[] = [
    { Update: { TableName: tableName(), Key: workspaceRecordKey(workspaceId), UpdateExpression: 'SET test_clock = :clock', ...condition } },
    { Put: { TableName: tableName(), Item: { ...clockRegistryKey(workspaceId), _type: 'test_clock_registry', workspace: workspaceId, frozen_time: next.frozen_time } } },
    ...also,
  ];
  try {
    await transactWrite(items);
  } catch (error) {
    if (error instanceof ConditionFailed && error.index === 0) throw advancing();
    throw error;
  }
  return next;
}
