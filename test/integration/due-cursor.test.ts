import { randomUUID } from 'node:crypto';
import type { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { scheduledRunHandler, type ScheduledRun } from '../../functions/schedules/tick';
import { makeCtx } from '../../shared/context';
import { db, setAfterSendHook, tableName } from '../../shared/db/client';
import { dueBucketOf, dueIndexKeys, DUE_SHARDS, LATE_SHARDS, shardOf } from '../../shared/db/due-keys';
import { getItem } from '../../shared/db/items';
import { DUE_REREAD_MS, type RunLimits } from '../../shared/domain/schedules/due-cursor';
import type { DueItem } from '../../shared/domain/schedules/due-item';
import { dueQueueUrlEnv } from '../../shared/domain/schedules/due-queue';
import { migrateDueIndex } from '../../shared/domain/schedules/migrate-due-index';
import { startTestApi, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { withEnv } from '../support/oauth';

/**
 * The scheduled run reads the scheduling index from its cursor (shared/domain/schedules/due-cursor.ts): the real
 * handler against DynamoDB Local, SQS replaced by a recorder, each test with a cursor and lease of its own (the table
 * is shared with other test files, whose items the runs also find: assertions look at this workspace's). The clock is
 * stopped: a run happens exactly at the time a test moves it to.
 */
let api: TestApi;
let client: Client;
const clock = movableClock({ stopped: true });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What each run sent, in order. */
let sent: DueItem[][] = [];
const sqs = {
  send: async (command: SendMessageBatchCommand) => {
    sent.at(-1)!.push(...command.input.Entries!.map((entry) => JSON.parse(entry.MessageBody!) as DueItem));
    return { Failed: [] };
  },
} as unknown as SQSClient;

/** A scheduler of its own: its own cursor and lease; `run()` is one scheduled run at the clock's time. */
function scheduler(limits?: RunLimits) {
  const name = `test-${randomUUID()}`;
  const handler = scheduledRunHandler(sqs, { lease: name, cursor: name, limits });
  return {
    cursor: name,
    run: (): Promise<ScheduledRun> => {
      sent.push([]);
      return handler({}, { getRemainingTimeInMillis: () => 60_000 });
    },
  };
}
/** The ids of this workspace's items the runs sent, run by run. */
const ours = () => sent.map((run) => run.filter((i) => i.workspace === client.workspace).map((i) => i.id));
const everSent = (id: string) => ours().flat().filter((i) => i === id).length;

/** An item of this workspace due at `dueAt` (a kind no worker knows: the recorder only records it). */
async function dueItem(dueAt: number): Promise<{ id: string; pk: string }> {
  const id = `tst_${randomUUID()}`;
  const ctx = makeCtx(client.workspace, 'test', clock);
  const pk = `WS#${client.workspace}#TST#${id}`;
  await db.send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'TST', ...dueIndexKeys(ctx, new Date(dueAt).toISOString(), 'test_work', id) } }));
  return { id, pk };
}
const now = () => clock.now().getTime();
const moveTo = (at: number) => clock.advance(at - now());

const restoreEnv = withEnv({ [dueQueueUrlEnv]: 'https://sqs.local/000000000000/due-work.fifo' });
beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
});
afterAll(async () => {
  await api.close();
  clock.restore();
  restoreEnv();
});
beforeEach(() => {
  sent = [];
});
afterEach(() => setAfterSendHook(undefined));

it('an item sits in the partition of its due year and its shard; a run finds it exactly when it comes due, once, with one Query per shard', async () => {
  const { run } = scheduler();
  const dueAt = now() + 2 * HOUR;
  const { id, pk } = await dueItem(dueAt);
  const scheduled = await Promise.all(Array.from({ length: 50 }, () => dueItem(now() + 30 * DAY)));
  const stored = await getItem<{ gsi4pk: string; gsi4sk: string }>({ pk, sk: 'TST' }, true);
  expect(stored).toMatchObject({ gsi4pk: `DUE#${dueBucketOf(new Date(dueAt).toISOString())}#${String(shardOf(id, DUE_SHARDS)).padStart(2, '0')}`, gsi4sk: `${new Date(dueAt).toISOString()}#test_work#${id}` });

  const calls: string[] = [];
  setAfterSendHook((name) => void calls.push(name));
  await run();
  moveTo(dueAt - 1);
  await run();
  expect(everSent(id)).toBe(0);
  moveTo(dueAt);
  calls.length = 0;
  expect(await run()).toEqual({ due: expect.any(Number) });
  expect(ours().at(-1)).toContain(id);
  // Its reading: the late partitions and each shard of the year, whatever else is scheduled; no Scan ever.
  expect(calls.filter((c) => c === 'QueryCommand').length).toBeLessThanOrEqual(LATE_SHARDS + DUE_SHARDS);
  expect(calls).not.toContain('ScanCommand');

  moveTo(dueAt + DUE_REREAD_MS + 60_000); // past the window a run reads again
  await run();
  expect(everSent(id)).toBeLessThanOrEqual(2); // found by its run, and maybe once more in the re-read window
  await run();
  expect(ours().at(-1)).toEqual([]);
  for (const item of scheduled) expect(everSent(item.id)).toBe(0);
});

it('a cursor years behind catches up bucket by bucket, a bounded number of items a run, and finds each item once', async () => {
  // The table is shared with every other test file, whose due items (renewals months and years ahead) the cursor reads
  // too: a run's item limit is set well above what they add, so the runs are bounded by buckets, as this test means.
  const limits = { items: 500, buckets: 1 };
  const { run } = scheduler(limits);
  await run(); // the cursor starts here
  const start = now();
  const items = await Promise.all([HOUR, 400 * DAY, 800 * DAY].map(async (after) => ({ ...(await dueItem(start + after)), at: start + after })));
  moveTo(start + 900 * DAY); // runs stopped for two and a half years

  const runsUntil = new Map<string, number>();
  for (let i = 1; runsUntil.size < items.length && i <= 200; i++) {
    await run();
    expect(sent.at(-1)!.length).toBeLessThanOrEqual(limits.items);
    for (const item of items) if (!runsUntil.has(item.id) && ours().at(-1)!.includes(item.id)) runsUntil.set(item.id, i);
  }
  expect(runsUntil.size).toBe(items.length);
  // A run reads one bucket (year) of each shard: the last item is reached no sooner than its year's run.
  const years = (at: number) => Number(dueBucketOf(new Date(at).toISOString())) - Number(dueBucketOf(new Date(start).toISOString()));
  for (const item of items) expect(runsUntil.get(item.id)!).toBeGreaterThanOrEqual(years(item.at) + 1);
  for (const item of items) expect(everSent(item.id)).toBe(1);
  await run();
  expect(ours().at(-1)).toEqual([]); // caught up: nothing of it is read again
});

it('two runs at once: one sends the due item, the other does nothing', async () => {
  const { run } = scheduler();
  const { id } = await dueItem(now());
  let enter!: () => void;
  let release!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  setAfterSendHook(async (name) => {
    if (name !== 'QueryCommand' || held) return;
    held = true;
    enter();
    await gate;
  });
  const first = run();
  await entered;
  expect(await run()).toEqual({ skipped: 'another run holds the lease' });
  release();
  expect(await first).toEqual({ due: expect.any(Number) });
  expect(everSent(id)).toBe(1);
});

it('an item rescheduled is found at its new time only', async () => {
  const { run } = scheduler();
  const start = now();
  const { id, pk } = await dueItem(start + HOUR);
  await run();
  const later = new Date(start + 3 * DAY).toISOString();
  const keys = dueIndexKeys(makeCtx(client.workspace, 'test', clock), later, 'test_work', id);
  await db.send(new UpdateCommand({
    TableName: tableName(), Key: { pk, sk: 'TST' }, UpdateExpression: 'SET gsi4pk = :p, gsi4sk = :s', ExpressionAttributeValues: { ':p': keys.gsi4pk, ':s': keys.gsi4sk },
  }));
  moveTo(start + HOUR + 1);
  await run();
  moveTo(start + 2 * DAY);
  await run();
  expect(everSent(id)).toBe(0);
  moveTo(start + 3 * DAY);
  await run();
  expect(ours().at(-1)).toEqual([id]);
});

it('an item written already due, after the runs passed its time, is still found: long overdue in the late partitions, just due in its year by the re-read window', async () => {
  const { run } = scheduler();
  await run();
  moveTo(now() + 10 * 60_000);
  await run(); // the cursor is past everything due until DUE_REREAD_MS ago
  const overdue = await dueItem(now() - 2 * DAY); // a renewal computed late, a backdated subscription
  const justDue = await dueItem(now() - 30_000); // due while its transaction was on its way
  expect((await getItem<{ gsi4pk: string }>({ pk: overdue.pk, sk: 'TST' }, true))!.gsi4pk).toMatch(/^DUE#LATE#\d\d$/);
  expect((await getItem<{ gsi4pk: string }>({ pk: justDue.pk, sk: 'TST' }, true))!.gsi4pk).not.toMatch(/LATE/);
  moveTo(now() + 60_000);
  await run();
  expect(ours().at(-1)!.sort()).toEqual([overdue.id, justDue.id].sort());
});

it('the one-time migration moves entries of the old shape (one partition per workspace) to their year and shard, a pending check also into its list; a run finds them; a second migration changes nothing', async () => {
  const { run } = scheduler();
  await run();
  const dueAt = new Date(now() + HOUR).toISOString();
  const old = async (kind: string, id: string) => {
    const pk = `WS#${client.workspace}#TST#${id}`;
    await db.send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'TST', gsi4pk: `WS#${client.workspace}#DUE`, gsi4sk: `${dueAt}#${kind}#${id}` } }));
    return pk;
  };
  const [work, check] = [`tst_${randomUUID()}`, `inv_${randomUUID()}`];
  const [workPk, checkPk] = [await old('test_work', work), await old('pending_charge_check', check)];

  const first = await migrateDueIndex();
  expect(first.moved).toBeGreaterThanOrEqual(2);
  const ctx = makeCtx(client.workspace, 'test', clock);
  expect(await getItem({ pk: workPk, sk: 'TST' }, true)).toMatchObject(dueIndexKeys(ctx, dueAt, 'test_work', work));
  expect(await getItem({ pk: checkPk, sk: 'TST' }, true)).toMatchObject({
    ...dueIndexKeys(ctx, dueAt, 'pending_charge_check', check), gsi1pk: `WS#${client.workspace}#LIST#PCHK`, gsi1sk: `${dueAt}#${check}`,
  });
  expect(await migrateDueIndex()).toEqual({ moved: 0, skipped: 0 });
  moveTo(Date.parse(dueAt));
  await run();
  expect(ours().at(-1)).toEqual(expect.arrayContaining([work, check])); // beside the late items above, read every run until worked
});
