import { clock as processClock } from '../../clock';
import type { Ctx } from '../../context';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { Conflict, NotFound, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { clockRegistryKey, readWorkspaceRecord, testClockResource, workspaceRecordKey, type StoredTestClock, type TestClock, type WorkspaceRecord } from './test-clock';
import { tableName } from '../../db/client';

export interface TestClockRequest {
  frozen_time: string;
  name?: string;
}

const liveRefusal = (ctx: Ctx) =>
  new RuleViolation('livemode_workspace', `Test clocks exist only in test-mode workspaces; workspace ${ctx.workspaceId} is live, and its time is always the real time.`);

/** A held advance stops counting after this (real time): one that crashed leaves the clock to the next advance. */
export const ADVANCE_HOLD_MS = 60_000;

export const isAdvancing = (c: StoredTestClock, nowMs = Date.now()): boolean => c.status === 'advancing' && (c.held_until ?? 0) > nowMs;

/** The workspace's clock if it is `id` (another workspace's id, or none, answers as missing). */
export async function storedTestClock(ctx: Ctx, id: string): Promise<{ record: WorkspaceRecord; clock: StoredTestClock }> {
  const record = await readWorkspaceRecord(ctx.workspaceId);
  if (!record?.test_clock || record.test_clock.id !== id) throw new NotFound('test clock', id);
  return { record, clock: record.test_clock };
}

/**
 * Puts the workspace on a clock frozen at `frozen_time`: from now on everything that reads the time in it reads this
 * clock. Only a test-mode workspace may (422 otherwise), and only one clock a workspace (409).
 */
export async function createTestClock(ctx: Ctx, body: TestClockRequest): Promise<TestClock> {
  const record = await readWorkspaceRecord(ctx.workspaceId);
  if (record?.mode !== 'test') throw liveRefusal(ctx);
  if (record.test_clock) throw new Conflict(`The workspace has a test clock already (${record.test_clock.id}); delete it first.`, 'test_clock_exists');
  const frozen = new Date(body.frozen_time).toISOString();
  const stored: StoredTestClock = {
    id: newId('clock'), name: body.name ?? 'Test clock', frozen_time: frozen, status: 'ready', created_at: processClock.now().toISOString(), version: 1,
  };
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(), Key: workspaceRecordKey(ctx.workspaceId), UpdateExpression: 'SET test_clock = :clock',
          ConditionExpression: 'attribute_not_exists(test_clock) AND #mode = :test', ExpressionAttributeNames: { '#mode': 'mode' },
          ExpressionAttributeValues: { ':clock': stored, ':test': 'test' },
        },
      },
      { Put: { TableName: tableName(), Item: { ...clockRegistryKey(ctx.workspaceId), _type: 'test_clock_registry', workspace: ctx.workspaceId, frozen_time: frozen } } },
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw new Conflict('The workspace has a test clock already; delete it first.', 'test_clock_exists');
    throw error;
  }
  return testClockResource(stored);
}

export const getTestClock = async (ctx: Ctx, id: string): Promise<TestClock> => testClockResource((await storedTestClock(ctx, id)).clock);

/** The workspace's clock, if any: a list of one at most (one clock a workspace). */
export async function listTestClocks(ctx: Ctx) {
  const record = await readWorkspaceRecord(ctx.workspaceId);
  const data: TestClock[] = record?.test_clock ? [testClockResource(record.test_clock)] : [];
  return { meta: { total: data.length, taken: data.length, skipped: 0 }, data };
}

/**
 * Takes the workspace off its clock: its time is the real time again. Work scheduled while on the clock stays filed
 * under it and is not run (docs/test-clocks.md): delete a clock when the test is over. Refused while an advance runs.
 */
export async function deleteTestClock(ctx: Ctx, id: string): Promise<TestClock> {
  const { clock } = await storedTestClock(ctx, id);
  if (isAdvancing(clock)) throw new Conflict('The test clock is advancing; delete it once it is ready.', 'test_clock_advancing');
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(), Key: workspaceRecordKey(ctx.workspaceId), UpdateExpression: 'REMOVE test_clock',
          ConditionExpression: 'test_clock.version = :v', ExpressionAttributeValues: { ':v': clock.version },
        },
      },
      { Delete: { TableName: tableName(), Key: clockRegistryKey(ctx.workspaceId) } },
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw new Conflict('The test clock changed meanwhile (an advance); try again.', 'test_clock_advancing');
    throw error;
  }
  return testClockResource(clock);
}
