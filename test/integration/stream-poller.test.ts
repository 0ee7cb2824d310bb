import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStreamPoller, type StreamPoller, type StreamPollerOptions } from '../../lib/local/stream-poller';

/**
 * The local stream poller against the DynamoDB Local of the test run, with a recording stub handler. Other test
 * files write to the same table meanwhile: each test only looks at keys under its own random prefix.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const TableName = process.env.TABLE_NAME!;
const raw = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
const doc = DynamoDBDocumentClient.from(raw);
afterAll(() => raw.destroy());

const pollers: StreamPoller[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

const newPrefix = () => `WS#test-poller-${randomUUID().slice(0, 8)}#`;
const pkOf = (record: DynamoDBRecord) => record.dynamodb?.Keys?.pk?.S ?? '';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stub stream handler that records every batch it receives (only this test's keys), then answers with `respond`. */
function recorder(prefix: string, respond?: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>) {
  const batches: DynamoDBRecord[][] = [];
  return {
    batches,
    /** Every delivery of this test's records, in order, retries included. */
    records: () => batches.flat().filter((record) => pkOf(record).startsWith(prefix)),
    keys: () => batches.flat().map(pkOf).filter((pk) => pk.startsWith(prefix)),
    handler: async (event: DynamoDBStreamEvent) => {
      batches.push(event.Records);
      return respond?.(event);
    },
  };
}

async function start(prefix: string, options: Omit<StreamPollerOptions, 'endpoint' | 'tableName' | 'accept'>): Promise<StreamPoller> {
  const poller = await startStreamPoller({ endpoint, tableName: TableName, accept: (record) => pkOf(record).startsWith(prefix), ...options });
  pollers.push(poller);
  return poller;
}

const put = (pk: string, attributes: Record<string, unknown> = {}) => doc.send(new PutCommand({ TableName, Item: { pk, sk: 'X', ...attributes } }));

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

describe('local stream poller', () => {
  it("delivers changes made after it starts ('latest') as Lambda records, in order, within 2 s", async () => {
    const prefix = newPrefix();
    const pk = `${prefix}X#1`;
    const handler = recorder(prefix);
    await start(prefix, { from: 'latest', handler: handler.handler });

    await put(pk, { name: 'First', amount: 10, tags: new Set(['a', 'b']), data: { list: [1, 'two', null, true], none: {} }, meta: {}, blob: Uint8Array.from([1, 2, 3]) });
    await doc.send(new UpdateCommand({ TableName, Key: { pk, sk: 'X' }, UpdateExpression: 'SET #name = :name', ExpressionAttributeNames: { '#name': 'name' }, ExpressionAttributeValues: { ':name': 'Second' } }));
    await doc.send(new DeleteCommand({ TableName, Key: { pk, sk: 'X' } }));
    const written = Date.now();
    await waitFor(() => handler.records().length >= 3, 2_000);
    expect(Date.now() - written).toBeLessThan(2_000);

    const [insert, modify, remove] = handler.records();
    expect(handler.records().map((r) => r.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    for (const record of [insert!, modify!, remove!]) {
      expect(record).toMatchObject({ eventVersion: '1.1', eventSource: 'aws:dynamodb', eventID: expect.any(String), awsRegion: expect.any(String) });
      expect(record.eventSourceARN).toMatch(new RegExp(`:table/${TableName}/stream/`));
      expect(record.dynamodb).toMatchObject({ Keys: { pk: { S: pk }, sk: { S: 'X' } }, StreamViewType: 'NEW_AND_OLD_IMAGES', SizeBytes: expect.any(Number) });
      // Epoch seconds, as Lambda delivers them (DynamoDB Local rounds them down to the minute).
      expect(Math.abs(record.dynamodb!.ApproximateCreationDateTime! - Date.now() / 1000)).toBeLessThan(120);
    }
    const sequence = handler.records().map((r) => BigInt(r.dynamodb!.SequenceNumber!));
    expect([...sequence].sort((a, b) => (a < b ? -1 : 1))).toEqual(sequence);

    const image = {
      pk: { S: pk },
      sk: { S: 'X' },
      name: { S: 'First' },
      amount: { N: '10' },
      tags: { SS: expect.arrayContaining(['a', 'b']) },
      data: { M: { list: { L: [{ N: '1' }, { S: 'two' }, { NULL: true }, { BOOL: true }] }, none: { M: {} } } },
      meta: { M: {} }, // DynamoDB Local streams empty maps as `{}`
      blob: { B: 'AQID' }, // base64 in the JSON event, as Lambda receives it
    };
    expect(insert!.dynamodb!.NewImage).toEqual(image);
    expect(insert!.dynamodb).not.toHaveProperty('OldImage');
    expect(modify!.dynamodb!.OldImage).toEqual(image);
    expect(modify!.dynamodb!.NewImage).toEqual({ ...image, name: { S: 'Second' } });
    expect(remove!.dynamodb!.OldImage).toEqual({ ...image, name: { S: 'Second' } });
    expect(remove!.dynamodb).not.toHaveProperty('NewImage');
  });

  it("starts at the end of the stream with 'latest' and at its beginning with 'trim_horizon'", async () => {
    const prefix = newPrefix();
    await put(`${prefix}X#before`);
    const latest = recorder(prefix);
    const fromLatest = await start(prefix, { from: 'latest', handler: latest.handler });
    await put(`${prefix}X#after`);
    await fromLatest.drain();
    expect(latest.keys()).toEqual([`${prefix}X#after`]);

    const all = recorder(prefix);
    const fromTrimHorizon = await start(prefix, { from: 'trim_horizon', handler: all.handler });
    await fromTrimHorizon.drain();
    expect(all.keys()).toEqual([`${prefix}X#before`, `${prefix}X#after`]);
    // From trim_horizon it reads the whole shared table's stream: everything the suite's files wrote before it.
  }, 120_000);

  it('retries from the first record reported in batchItemFailures, and never redelivers the ones before it', async () => {
    const prefix = newPrefix();
    let failed = false;
    const handler = recorder(prefix, async (event) => {
      const second = event.Records.find((record) => pkOf(record) === `${prefix}X#2`);
      if (second && !failed) {
        failed = true;
        return { batchItemFailures: [{ itemIdentifier: second.dynamodb!.SequenceNumber! }] };
      }
      return { batchItemFailures: [] };
    });
    // Only drain() polls here (the timer waits a minute), so that the three records arrive in one batch.
    const poller = await start(prefix, { from: 'latest', intervalMs: 60_000, handler: handler.handler });
    await poller.drain();
    for (const n of [1, 2, 3]) await put(`${prefix}X#${n}`);
    await poller.drain();

    // Flattened: DynamoDB Local may start a new shard between two of the puts (seen in CI: [X#1], then [X#2, X#3]
    // twice), which splits the batch without changing what is delivered, in which order, and what again.
    const ours = (batch: DynamoDBRecord[]) => batch.map(pkOf).filter((pk) => pk.startsWith(prefix));
    expect(handler.batches.flatMap(ours)).toEqual([
      `${prefix}X#1`, `${prefix}X#2`, `${prefix}X#3`,
      `${prefix}X#2`, `${prefix}X#3`,
    ]);
    await put(`${prefix}X#4`);
    await poller.drain();
    expect(handler.keys().slice(5)).toEqual([`${prefix}X#4`]);
  });

  it('retries the whole batch when the handler throws, and reports the error', async () => {
    const prefix = newPrefix();
    const errors: unknown[] = [];
    let calls = 0;
    const handler = recorder(prefix, async () => {
      if (++calls === 1) throw new Error('handler down');
    });
    const poller = await start(prefix, { from: 'latest', intervalMs: 60_000, handler: handler.handler, onError: (error) => errors.push(error) });
    await poller.drain();
    for (const n of [1, 2]) await put(`${prefix}X#${n}`);
    await poller.drain(); // fails, made no progress: drain returns
    await poller.drain(); // the retry
    // The failed batch held X#1 (and X#2, unless a pass already running took X#1 alone); the retry resumes at X#1.
    const keys = handler.keys();
    const failed = keys.slice(0, keys.length - 2);
    expect([[`${prefix}X#1`], [`${prefix}X#1`, `${prefix}X#2`]]).toContainEqual(failed);
    expect(keys.slice(-2)).toEqual([`${prefix}X#1`, `${prefix}X#2`]);
    expect(errors).toEqual([new Error('handler down')]);
  });

  it('resumes from its checkpoint file after the last handled record: no duplicates, nothing missed', async () => {
    const prefix = newPrefix();
    const dir = await mkdtemp(join(tmpdir(), 'stream-poller-'));
    const checkpointFile = join(dir, 'nested', 'checkpoints.json');
    try {
      // The first poller handles 1 and 2, and keeps failing on 3.
      const first = recorder(prefix, async (event) => {
        const third = event.Records.find((record) => pkOf(record) === `${prefix}X#3`);
        return { batchItemFailures: third ? [{ itemIdentifier: third.dynamodb!.SequenceNumber! }] : [] };
      });
      const one = await start(prefix, { from: 'latest', intervalMs: 60_000, checkpointFile, handler: first.handler, onError: () => {} });
      await one.drain();
      for (const n of [1, 2, 3]) await put(`${prefix}X#${n}`);
      await one.drain();
      await one.stop();
      expect(first.keys().filter((pk) => pk !== `${prefix}X#3`)).toEqual([`${prefix}X#1`, `${prefix}X#2`]);

      const [second, third] = first.records().slice(1, 3).map((record) => BigInt(record.dynamodb!.SequenceNumber!));
      const saved: Record<string, string> = JSON.parse(await readFile(checkpointFile, 'utf8'));
      const checkpoint = BigInt(Object.values(saved).find((sequence) => BigInt(sequence) >= second! && BigInt(sequence) < third!) ?? -1);
      expect(checkpoint).toBeGreaterThanOrEqual(second!);

      await put(`${prefix}X#4`); // while no poller runs
      // 'latest' applies only to shards without a checkpoint: this one resumes after it.
      const next = recorder(prefix);
      const two = await start(prefix, { from: 'latest', checkpointFile, handler: next.handler });
      await two.drain();
      expect(next.keys()).toEqual([`${prefix}X#3`, `${prefix}X#4`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops delivering once stopped, after the batch in flight', async () => {
    const prefix = newPrefix();
    let started = false;
    let finished = false;
    const handler = recorder(prefix, async () => {
      started = true;
      await sleep(300);
      finished = true;
    });
    const poller = await start(prefix, { from: 'latest', handler: handler.handler });
    await put(`${prefix}X#1`);
    await waitFor(() => started, 2_000);
    const stopping = poller.stop();
    expect(finished).toBe(false);
    await stopping;
    expect(finished).toBe(true);

    await put(`${prefix}X#2`);
    await poller.drain(); // a stopped poller does nothing
    await sleep(600);
    expect(handler.keys()).toEqual([`${prefix}X#1`]);
  });
});
