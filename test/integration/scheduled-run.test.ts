import type { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SCHEDULED_RUN_LEASE, scheduledRunHandler, type ScheduledRun } from '../../functions/schedules/tick';
import { setAfterSendHook } from '../../shared/db/client';
import { getItem } from '../../shared/db/items';
import { leaseKey } from '../../shared/db/keys';
import type { LeaseItem } from '../../shared/db/lease';
import type { DueItem } from '../../shared/domain/schedules/due-item';
import { dueQueueUrlEnv } from '../../shared/domain/schedules/due-queue';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { pricedProduct, subscribe, subscriber, type PricedProduct } from '../support/subscriptions';

/**
 * The real scheduled handler (functions/schedules/tick.ts) against DynamoDB Local, with SQS replaced by a recorder:
 * runs that overlap (EventBridge starts one a minute; a sweep may take longer) do the work once, and a run that
 * crashed holds the others back only until its deadline.
 */
let api: TestApi;
let client: Client;
let fee: PricedProduct;
const clock = movableClock();
const previousQueueUrl = process.env[dueQueueUrlEnv];

/** What the runs queued (every workspace's due items: the table is shared with other test files). */
const sent: DueItem[] = [];
const sqs = {
  send: async (command: SendMessageBatchCommand) => {
    sent.push(...command.input.Entries!.map((entry) => JSON.parse(entry.MessageBody!) as DueItem));
    return { Failed: [] };
  },
} as unknown as SQSClient;
const run = scheduledRunHandler(sqs);
/** A run as Lambda starts it: this long before the function's timeout stops it. */
const RUN_DEADLINE_MS = 60_000;
const tick = (): Promise<ScheduledRun> => run({}, { getRemainingTimeInMillis: () => RUN_DEADLINE_MS });

beforeAll(async () => {
  process.env[dueQueueUrlEnv] = 'https://sqs.local/000000000000/due-work.fifo';
  api = await startTestApi();
  client = await api.client();
  await withEntity(client);
  fee = await pricedProduct(client, 'flat_fee', { amount: 1_000, name: 'Platform' });
});
afterAll(async () => {
  setAfterSendHook(undefined);
  if (previousQueueUrl === undefined) delete process.env[dueQueueUrlEnv];
  else process.env[dueQueueUrlEnv] = previousQueueUrl;
  await api.close();
  clock.restore();
});
afterEach(() => setAfterSendHook(undefined));

/** A subscription whose first billing is due now: in the window of the next run. */
async function dueSubscription(): Promise<string> {
  const customer = await subscriber(client);
  return (await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] })).id;
}
const queued = (subscriptionId: string) => sent.filter((item) => item.id === subscriptionId && item.workspace === client.workspace);

/**
 * Holds runs inside their reading of the scheduling index (a run's Queries, one after the other): `next()` holds the
 * next Query until its `release()`, and resolves `entered` once that run is inside. Queries sent while no hold waits
 * pass; `scans` counts them all.
 */
function scanHolds() {
  const waiting: { enter: () => void; gate: Promise<void> }[] = [];
  let scans = 0;
  setAfterSendHook(async (name) => {
    if (name !== 'QueryCommand') return;
    scans += 1;
    const hold = waiting.shift();
    if (!hold) return;
    hold.enter();
    await hold.gate;
  });
  return {
    scans: () => scans,
    next() {
      let enter!: () => void;
      let release!: () => void;
      const entered = new Promise<void>((resolve) => (enter = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      waiting.push({ enter, gate });
      return { entered, release };
    },
  };
}

it('two runs at once: one queues the due work, the other does nothing; the next run after it proceeds', async () => {
  const subscriptionId = await dueSubscription();
  const holds = scanHolds();
  const hold = holds.next();
  const first = tick();
  await hold.entered;

  expect(await tick()).toEqual({ skipped: 'another run holds the lease' });
  expect(holds.scans()).toBe(1); // the second run never read the scheduling index
  expect(queued(subscriptionId)).toHaveLength(0);

  hold.release();
  expect(await first).toEqual({ due: expect.any(Number) });
  expect(queued(subscriptionId)).toHaveLength(1);
  expect(await getItem(leaseKey(SCHEDULED_RUN_LEASE), true)).toBeUndefined(); // released at the end

  expect(await tick()).toEqual({ due: expect.any(Number) });
  expect(queued(subscriptionId)).toHaveLength(2); // the FIFO queue's deduplication drops the copy on AWS
});

it('a crashed run holds the lease until its deadline only; if it resumes after that, it leaves its successor\'s lease alone', async () => {
  const holds = scanHolds();
  const crashedHold = holds.next();
  const started = clock.now().getTime();
  const crashed = tick(); // never gets past its scan until the end: as good as dead
  await crashedHold.entered;
  const lease = (await getItem<LeaseItem>(leaseKey(SCHEDULED_RUN_LEASE), true))!;
  // Until its deadline, and a few seconds for clocks that differ between instances.
  expect(lease.expires_at - started).toBeGreaterThanOrEqual(RUN_DEADLINE_MS);
  expect(lease.expires_at - clock.now().getTime()).toBeLessThanOrEqual(RUN_DEADLINE_MS + 5_000);

  clock.advance(RUN_DEADLINE_MS / 2);
  expect(await tick()).toEqual({ skipped: 'another run holds the lease' }); // still within its deadline

  clock.advance(RUN_DEADLINE_MS / 2 + 10_000); // past its deadline and the allowance for clock skew
  const successorHold = holds.next();
  const successor = tick();
  await successorHold.entered;
  const successorLease = (await getItem<LeaseItem>(leaseKey(SCHEDULED_RUN_LEASE), true))!;
  expect(successorLease.holder).not.toBe(lease.holder);

  crashedHold.release();
  expect(await crashed).toEqual({ due: expect.any(Number) });
  expect(await getItem<LeaseItem>(leaseKey(SCHEDULED_RUN_LEASE), true)).toEqual(successorLease);
  expect(await tick()).toEqual({ skipped: 'another run holds the lease' });

  successorHold.release();
  expect(await successor).toEqual({ due: expect.any(Number) });
  expect(await tick()).toEqual({ due: expect.any(Number) });
});
