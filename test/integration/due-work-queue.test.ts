import type { SQSEvent } from 'aws-lambda';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { dueWorkHandler, handler as work } from '../../functions/schedules/work';
import { dueQueueVisibility } from '../../lib/scheduler';
import { setAfterSendHook } from '../../shared/db/client';
import { deduplicationId, findDueItems, groupId, type DueItem } from '../../shared/domain/schedules/due-item';
import { dueQueueUrlEnv, LocalDueQueue, retryDelaySeconds, sqsDueQueue } from '../../shared/domain/schedules/due-queue';
import { runDueBatch, runDueItem, runDueWork } from '../../shared/domain/schedules/run-due';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';
import { pricedProduct, subscribe, subscriber, type PricedProduct } from '../support/subscriptions';

/** Due work through the queue: the SQS worker function and the local in-process workers, crashes and duplicates. */
let api: TestApi;
let client: Client;
const clock = movableClock();
let fee: PricedProduct;
let entityId: string;

beforeAll(async () => {
  api = await startTestApi();
  client = await api.client();
  entityId = (await withEntity(client)).id;
  fee = await pricedProduct(client, 'flat_fee', { amount: 1_000, name: 'Platform' });
});
afterAll(async () => {
  setAfterSendHook(undefined);
  await api.close();
  clock.restore();
});

const mine = () => ({ workspaces: new Set([client.workspace]) });
const invoicesOf = async (customerId: string): Promise<{ number: string }[]> => (await client.get(`/v1/invoices?customer_id=${customerId}&take=100`)).body.data;

/** A new subscription due now, and its item as the scheduling index names it. */
async function dueSubscription(): Promise<{ customerId: string; subscriptionId: string; item: DueItem }> {
  const customer = await subscriber(client);
  const sub = await subscribe(client, { customer_id: customer.id, starts_at: clock.now().toISOString(), products: [{ ...fee, quantity: 1 }] });
  const items: DueItem[] = [];
  for await (const page of findDueItems(clock.now(), mine())) items.push(...page);
  const item = items.find((i) => i.id === sub.id);
  if (!item) throw new Error(`subscription ${sub.id} is not in the scheduling index`);
  return { customerId: customer.id, subscriptionId: sub.id, item };
}

/** An SQS event of these messages (a string is sent as it is: a malformed body). */
const sqsEvent = (...items: (DueItem | string)[]): SQSEvent => ({
  Records: items.map((item, i) => ({ messageId: `m${i}`, receiptHandle: `r${i}`, body: typeof item === 'string' ? item : JSON.stringify(item) }) as SQSEvent['Records'][number]),
});

/** Throws once, right after the first TransactWriteItems that committed: the worker dies with the invoice written. */
const crashAfterFirstCommit = () => {
  let crashed = false;
  setAfterSendHook((name) => {
    if (name === 'TransactWriteItemsCommand' && !crashed) {
      crashed = true;
      throw new Error('worker crashed after the commit');
    }
  });
};

describe('the SQS worker function', () => {
  it('a crash after the invoice\'s transaction fails that message (partial batch failure); its redelivery issues no second invoice', async () => {
    const { customerId, subscriptionId, item } = await dueSubscription();
    crashAfterFirstCommit();
    try {
      expect(await work(sqsEvent(item))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm0' }] });
    } finally {
      setAfterSendHook(undefined);
    }
    expect(await invoicesOf(customerId)).toHaveLength(1); // committed before the crash
    // SQS delivers the message again after its visibility timeout.
    expect(await work(sqsEvent(item))).toEqual({ batchItemFailures: [] });
    expect(await invoicesOf(customerId)).toHaveLength(1);
    expect((await client.get(`/v2/subscriptions/${subscriptionId}`)).body.next_billing_at > clock.now().toISOString()).toBe(true);
  });

  it('only the failed and unreadable messages are reported; the ones after them stand; a failed one comes back in 30 s, doubling, not after the visibility timeout', async () => {
    const first = await dueSubscription();
    const second = await dueSubscription();
    const changes: { QueueUrl: string; Entries: { ReceiptHandle: string; VisibilityTimeout: number }[] }[] = [];
    const fake = { send: async (command: { input: (typeof changes)[number] }) => (changes.push(command.input), {}) } as unknown as SQSClient;
    process.env[dueQueueUrlEnv] = 'https://sqs.example/due.fifo';
    try {
      const event = sqsEvent(first.item, '{not json', second.item);
      event.Records[1]!.attributes = { ApproximateReceiveCount: '3' } as SQSEvent['Records'][number]['attributes'];
      const result = await dueWorkHandler(fake)(event);
      expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['m1']);
      expect(changes).toEqual([{ QueueUrl: 'https://sqs.example/due.fifo', Entries: [{ Id: '0', ReceiptHandle: 'r1', VisibilityTimeout: 120 }] }]);
    } finally {
      delete process.env[dueQueueUrlEnv];
    }
    expect(await invoicesOf(first.customerId)).toHaveLength(1);
    expect(await invoicesOf(second.customerId)).toHaveLength(1);
    expect([1, 2, 3, 4, 5, 6].map(retryDelaySeconds)).toEqual([30, 60, 120, 240, 300, 300]);
    expect(retryDelaySeconds(5)).toBeLessThan(dueQueueVisibility.toSeconds());
  });
});

describe('the local queue and its in-process workers', () => {
  it('the same item queued six times, taken by four workers at once, issues one invoice', async () => {
    const { customerId, item } = await dueSubscription();
    const queue = new LocalDueQueue({ workers: 4, maxReceives: 1 });
    await queue.send(Array(6).fill(item));
    expect(await queue.drain(runDueItem)).toEqual({ received: 6, done: 6, failed: 0 });
    expect(await invoicesOf(customerId)).toHaveLength(1);
  });

  it('a crash after the commit is received again and issues no second invoice', async () => {
    const { customerId, item } = await dueSubscription();
    const queue = new LocalDueQueue({ workers: 2, maxReceives: 3 });
    await queue.send([item]);
    crashAfterFirstCommit();
    const errors: unknown[] = [];
    try {
      expect(await queue.drain(runDueItem, (_item, error) => errors.push(error))).toEqual({ received: 1, done: 1, failed: 0 });
    } finally {
      setAfterSendHook(undefined);
    }
    expect(errors).toHaveLength(1);
    expect(await invoicesOf(customerId)).toHaveLength(1);
  });

  it('an item failing every receive is dead-lettered after maxReceives, and the others are done', async () => {
    const queue = new LocalDueQueue({ workers: 3, maxReceives: 4 });
    const poison: DueItem = { workspace: client.workspace, kind: 'x', id: 'poison', pk: 'p', sk: 's', due: 'd' };
    const fine = Array.from({ length: 5 }, (_, i) => ({ ...poison, id: `fine${i}` }));
    await queue.send([poison, ...fine]);
    const receives = new Map<string, number>();
    const drained = await queue.drain(async (item) => {
      receives.set(item.id, (receives.get(item.id) ?? 0) + 1);
      if (item.id === 'poison') throw new Error('poison');
    });
    expect(drained).toEqual({ received: 6, done: 5, failed: 1 });
    expect(receives.get('poison')).toBe(4);
    expect(queue.deadLetters).toEqual([poison]);
  });

  it('a message group is run by one worker at a time; other groups run beside it; every item once', async () => {
    const queue = new LocalDueQueue({ workers: 4, maxReceives: 2, batchSize: 2 });
    const item = (id: string, group?: string): DueItem => ({ workspace: client.workspace, kind: 'x', id, pk: `p_${id}`, sk: 's', due: 'd', ...(group && { group }) });
    const items = [...Array.from({ length: 6 }, (_, i) => item(`a${i}`, 'A')), ...Array.from({ length: 6 }, (_, i) => item(`b${i}`, 'B')), ...Array.from({ length: 4 }, (_, i) => item(`c${i}`))];
    await queue.send(items);
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    let busiest = 0;
    const runs: string[] = [];
    const drained = await queue.drainBatches(async (batch) => {
      const groups = [...new Set(batch.map(groupId))];
      for (const g of groups) running.set(g, (running.get(g) ?? 0) + 1);
      busiest = Math.max(busiest, [...running.values()].reduce((sum, n) => sum + n, 0));
      for (const g of groups) most.set(g, Math.max(most.get(g) ?? 0, running.get(g)!));
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const g of groups) running.set(g, running.get(g)! - 1);
      runs.push(...batch.map((i) => i.id));
      // One failure, received again by whichever worker takes its group next.
      return batch.filter((i) => i.id === 'a3' && runs.filter((r) => r === 'a3').length === 1).map((i) => ({ item: i, error: new Error('once') }));
    });
    expect(drained).toEqual({ received: 16, done: 16, failed: 0 });
    expect([...most.values()].every((n) => n === 1)).toBe(true);
    expect(busiest).toBeGreaterThan(1);
    expect(runs.sort()).toEqual([...items.map((i) => i.id), 'a3'].sort());
  });

  it('while a sender is still sending, workers wait for its items instead of stopping, and stop once it is done', async () => {
    const queue = new LocalDueQueue({ workers: 3, maxReceives: 1, batchSize: 2 });
    const item = (id: string): DueItem => ({ workspace: client.workspace, kind: 'x', id, pk: `p_${id}`, sk: 's', due: 'd' });
    const done = queue.opened();
    const ran: string[] = [];
    const draining = queue.drainBatches(async (batch) => (ran.push(...batch.map((i) => i.id)), []));
    await queue.send([item('page1a'), item('page1b')]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran.sort()).toEqual(['page1a', 'page1b']); // worked before the next page came
    await queue.send([item('page2a'), item('page2b'), item('page2c')]);
    done();
    expect(await draining).toEqual({ received: 5, done: 5, failed: 0 });
    expect(ran.sort()).toEqual(['page1a', 'page1b', 'page2a', 'page2b', 'page2c']);
  });

  it('runDueWork = enqueue + drain: everything due is done once by its workers, and a second run finds nothing', async () => {
    const subs = await Promise.all(Array.from({ length: 6 }, () => dueSubscription()));
    const run = await runDueWork(clock.now(), mine(), { workers: 3 });
    expect(run).toMatchObject({ failed: 0 });
    expect(run.due).toBeGreaterThanOrEqual(6);
    for (const s of subs) expect(await invoicesOf(s.customerId)).toHaveLength(1);
    expect(await runDueWork(clock.now(), mine(), { workers: 3 })).toEqual({ due: 0, done: 0, failed: 0 });
  });
});

/** Every invoice number of the workspace (one entity), as integers, sorted. */
const allNumbers = async (): Promise<number[]> => {
  const numbers: number[] = [];
  for (let skip = 0; ; skip += 100) {
    const page = (await client.get(`/v1/invoices?take=100&skip=${skip}`)).body.data as { number: string | null }[];
    numbers.push(...page.map((i) => Number(/(\d+)$/.exec(i.number ?? '')?.[1])));
    if (page.length < 100) return numbers.sort((a, b) => a - b);
  }
};
const gapless = (numbers: number[]) => numbers.every((n, i) => n === i + 1);

describe('renewals numbered together', () => {
  it('a batch of renewals of one entity is one transaction: one invoice each, numbers consecutive, no gap', async () => {
    const subs = await Promise.all(Array.from({ length: 8 }, () => dueSubscription()));
    let transactions = 0;
    setAfterSendHook((name) => {
      if (name === 'TransactWriteItemsCommand') transactions += 1;
    });
    try {
      expect(await runDueBatch(subs.map((s) => s.item))).toEqual([]);
    } finally {
      setAfterSendHook(undefined);
    }
    expect(transactions).toBe(1);
    for (const s of subs) expect(await invoicesOf(s.customerId)).toHaveLength(1);
    const numbers = subs.map(async (s) => Number(/(\d+)$/.exec((await invoicesOf(s.customerId))[0]!.number)![1]));
    const taken = (await Promise.all(numbers)).sort((a, b) => a - b);
    expect(taken.every((n, i) => i === 0 || n === taken[i - 1]! + 1)).toBe(true);
    expect(gapless(await allNumbers())).toBe(true);
  });

  it('a crash after the batch\'s transaction: the redelivered batch issues nothing more, numbers stay gapless', async () => {
    const subs = await Promise.all(Array.from({ length: 5 }, () => dueSubscription()));
    crashAfterFirstCommit();
    try {
      // The crash is caught as a failed batch: each is then billed alone, finds its subscription moved on, and issues nothing.
      await runDueBatch(subs.map((s) => s.item));
    } finally {
      setAfterSendHook(undefined);
    }
    expect(await runDueBatch(subs.map((s) => s.item))).toEqual([]);
    for (const s of subs) expect(await invoicesOf(s.customerId)).toHaveLength(1);
    expect(gapless(await allNumbers())).toBe(true);
  });

  it('overlapping batches and duplicates of the same renewals, four at once: one invoice each, no gap, no repeated number', async () => {
    // The queue runs an entity's renewals one batch at a time, but a redelivery after a visibility timeout (or a
    // message sent by an older version, without the entity's group) can still run beside a batch: numbering holds.
    const subs = await Promise.all(Array.from({ length: 10 }, () => dueSubscription()));
    const items = subs.map((s) => s.item);
    const batches = [items.slice(0, 6), items.slice(4, 10), [...items.slice(0, 3), ...items.slice(7, 10)], items.slice(2, 8)];
    const failures = await Promise.all(batches.map(async (batch) => {
      const failed = await runDueBatch(batch);
      return failed.length === 0 ? [] : runDueBatch(failed.map((f) => f.item)); // received again, as the queue would
    }));
    expect(failures.flat()).toEqual([]);
    for (const s of subs) expect(await invoicesOf(s.customerId)).toHaveLength(1);
    expect(gapless(await allNumbers())).toBe(true);
  });

  it('a batch whose numbers another invoice took meanwhile is renumbered from the cancellation and written again, without reading the entity', async () => {
    const subs = await Promise.all(Array.from({ length: 4 }, () => dueSubscription()));
    const other = await subscriber(client);
    const calls: string[] = [];
    let raced = false;
    setAfterSendHook(async (name) => {
      calls.push(name);
      // Right after the batch read its customers and entity: another invoice takes the entity's next number.
      if (name === 'BatchGetItemCommand' && calls.filter((c) => c === name).length === 2 && !raced) {
        raced = true;
        const taken = await client.post('/v1/invoices', { customer_id: other.id, status: 'to_pay', line_items: [{ name: 'Service', unit_amount: 1_000 }] });
        expect(taken.status).toBe(201);
        calls.push('(the other invoice)');
      }
    });
    try {
      expect(await runDueBatch(subs.map((s) => s.item))).toEqual([]);
    } finally {
      setAfterSendHook(undefined);
    }
    // The other invoice took the number the batch had read, so the batch's first transaction was cancelled; what
    // followed (the hook sees calls that succeed) is the one that committed: no read of the entity in between.
    expect(calls.slice(calls.indexOf('(the other invoice)') + 1)).toEqual(['TransactWriteItemsCommand']);
    const numberOf = async (customerId: string) => Number(/(\d+)$/.exec((await invoicesOf(customerId))[0]!.number)![1]);
    const first = await numberOf(other.id);
    expect((await Promise.all(subs.map((s) => numberOf(s.customerId)))).sort((a, b) => a - b)).toEqual([first + 1, first + 2, first + 3, first + 4]);
    expect(gapless(await allNumbers())).toBe(true);
  });

  it("an entity's renewals share one message group, so the queue hands them to one worker at a time", async () => {
    const [a, b] = await Promise.all([dueSubscription(), dueSubscription()]);
    expect(a.item.group).toBe(entityId);
    expect(groupId(a.item)).toBe(groupId(b.item));
    expect(groupId(a.item)).not.toBe(groupId({ ...a.item, workspace: 'ws_other' }));
    await runDueWork(clock.now(), mine()); // billed, so that the tests after this one find nothing of it due
  });
});

describe('the SQS sender', () => {
  it('sends batches of 10, grouped per item (or per group) and deduplicated per item and due date', async () => {
    const sent: { Entries: { Id: string; MessageBody: string; MessageGroupId: string; MessageDeduplicationId: string }[] }[] = [];
    const fake = { send: async (command: { input: (typeof sent)[number] }) => (sent.push(command.input), { Failed: [] }) } as unknown as SQSClient;
    const item = (i: number): DueItem => ({ workspace: 'ws_a', kind: 'subscription_billing', id: `sub_${i}`, pk: `WS#ws_a#SUB#sub_${i}`, sk: 'SUB', due: `2026-12-01T00:00:00.000Z#subscription_billing#sub_${i}` });
    const items = Array.from({ length: 23 }, (_, i) => item(i));
    const queue = sqsDueQueue('https://sqs.example/queue.fifo', fake);
    await queue.send(items);
    expect(sent.map((b) => b.Entries.length).sort()).toEqual([10, 10, 3]);
    const entries = sent.flatMap((b) => b.Entries);
    expect(entries.map((e) => JSON.parse(e.MessageBody).id).sort()).toEqual(items.map((i) => i.id).sort());
    expect(new Set(entries.map((e) => e.MessageGroupId)).size).toBe(23);
    expect(entries.find((e) => JSON.parse(e.MessageBody).id === 'sub_0')!.MessageGroupId).toBe(groupId(item(0)));
    expect(entries.find((e) => JSON.parse(e.MessageBody).id === 'sub_0')!.MessageDeduplicationId).toBe(deduplicationId(item(0)));
    // The same item due at another date is another piece of work.
    expect(deduplicationId({ ...item(0), due: 'later' })).not.toBe(deduplicationId(item(0)));
  });
});
