import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../context';
import { db, tableName } from '../../db/client';
import { operatorKey, settingKey, type Key } from '../../db/keys';

/**
 * A test clock (docs/test-clocks.md): the time of one test-mode workspace, frozen at `frozen_time` until advanced.
 * It lives on the workspace's own item (one clock a workspace), and a mirror of its time in the operator partition
 * `OPS#TEST_CLOCKS` tells the scheduled run which workspaces run on a clock and up to when their work is due.
 */
export interface StoredTestClock {
  id: string;
  name: string;
  frozen_time: string;
  status: 'ready' | 'advancing';
  created_at: string;
  /** Bumped by every change: an advance step is written only by the advance that read the version before it. */
  version: number;
  /** While advancing: the advance that holds the clock, the time it is moving to, and until when (ms, real time) its hold counts. */
  holder?: string;
  advancing_to?: string;
  held_until?: number;
}

export interface TestClock {
  id: string;
  object: 'test_clock';
  name: string;
  frozen_time: string;
  status: 'ready' | 'advancing';
  created_at: string;
}

export interface WorkspaceRecord extends Key {
  mode?: 'live' | 'test';
  test_clock?: StoredTestClock;
}

/** The workspace's own item (`WS#<id>#SETTING` / `workspace`): its name, mode and test clock. */
export const workspaceRecordKey = (workspaceId: string): Key => settingKey(makeCtx(workspaceId, 'workspace'), 'workspace');

/** The scheduled run's view of a clock: `OPS#TEST_CLOCKS` / `<workspace>`, holding the clock's time. */
export const TEST_CLOCKS_COLLECTION = 'TEST_CLOCKS';
export const clockRegistryKey = (workspaceId: string): Key => operatorKey(TEST_CLOCKS_COLLECTION, workspaceId);

export const readWorkspaceRecord = async (workspaceId: string): Promise<WorkspaceRecord | undefined> =>
  (await db.send(new GetCommand({ TableName: tableName(), Key: workspaceRecordKey(workspaceId), ConsistentRead: true }))).Item as WorkspaceRecord | undefined;

export const testClockResource = (c: StoredTestClock): TestClock => ({
  id: c.id, object: 'test_clock', name: c.name, frozen_time: c.frozen_time, status: c.status, created_at: c.created_at,
});
