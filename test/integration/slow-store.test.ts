/**
 * DynamoDB slower than a request's time, as on a loaded machine or a throttled table: `npm run bench`'s noisy row
 * (another workspace sending batches of 1,000 events at load ~25) got a 500 when a batch outlasted its invocation
 * and middy's timeout surfaced as an unhandled error. Each handler here has INVOCATION_MS; the store is made slow by
 * holding DynamoDB's answers (setAfterSendHook) until the request that asked has run out of time.
 */
import { batchGet } from '../../shared/db/batch-get';
import { setAfterSendHook } from '../../shared/db/client';
import { makeCtx } from '../../shared/context';
import { usageEventKey, type UsageEventItem } from '../../shared/domain/metering/usage-event';
import { startTestApi, withEntity, type Client, type TestApi } from '../support/api';

const INVOCATION_MS = 4_000;

let api: TestApi;
let client: Client;

beforeAll(async () => {
  api = await startTestApi({ invocationMs: INVOCATION_MS });
  client = await api.client();
  await withEntity(client);
});
/** Answers still held: a test ends only once they are given (the store is not left with calls in flight). */
const held: Promise<void>[] = [];
afterEach(async () => {
  setAfterSendHook(undefined);
  await Promise.all(held.splice(0));
});
afterAll(() => api.close());

/** Holds the caller until `at` (ms since the epoch) has passed: the answer of a store that slow. */
async function holdUntil(at: number): Promise<void> {
  while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, Math.min(50, at - Date.now())));
}

/** Makes every `every`-th answer of `command` arrive after the invocation that asked for it has ended. */
function slowAnswers(command: string, every: number): void {
  let calls = 0;
  setAfterSendHook(async (name) => {
    if (name !== command || ++calls % every !== 0) return;
    const hold = holdUntil(Date.now() + INVOCATION_MS);
    held.push(hold);
    await hold;
  });
}

/** Sends events as a client should: those failed `throttled` again, until every one is stored. */
async function sendUntilStored(events: unknown[]): Promise<void> {
  for (let pending = events, round = 0; pending.length > 0; round++) {
    if (round === 10) throw new Error(`${pending.length} events still not stored after 10 rounds`);
    const reply = await client.post<BatchReply>('/v1/events/batch', pending);
    expect([reply.status, reply.body.events_failed.filter((f) => f.error.code !== 'throttled')]).toEqual([201, []]);
    pending = reply.body.events_failed.map((f) => f.event);
  }
}

type Failure = { index: number; event: { record: { id: string } }; error: { code: string; message: string } };
type BatchReply = { events_created: { id: string }[]; events_failed: Failure[] };

describe('a store slower than the request', () => {
  it('answers concurrent batches of events 201 in time, failing `throttled` what was not stored; sent again, every event is stored', async () => {
    const customer = (await client.post('/v1/customers', { name: 'Metered', currency: 'EUR' })).body as { id: string };
    const now = Date.now();
    const batches = Array.from({ length: 4 }, (_, b) => Array.from({ length: 100 }, (_, i) => ({
      customer_id: customer.id, event_type: 'api_call', timestamp: new Date(now - b * 1_000 - i).toISOString(), record: { id: `slow-${b}-${i}`, units: 1 },
    })));
    slowAnswers('BatchWriteItemCommand', 3);

    const replies = await Promise.all(batches.map((batch) => client.post<BatchReply>('/v1/events/batch', batch)));

    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const failed = replies.flatMap((r) => r.body.events_failed);
    expect(new Set(failed.map((f) => f.error.code))).toEqual(new Set(['throttled']));
    expect(failed.length).toBeGreaterThan(0);
    // Every event is answered once: created, or failed and to be sent again.
    for (const [b, reply] of replies.entries()) {
      const answered = [...reply.body.events_created.map((e) => e.id), ...reply.body.events_failed.map((f) => f.event.record.id)];
      expect(answered.sort()).toEqual(batches[b]!.map((e) => e.record.id).sort());
    }

    setAfterSendHook(undefined);
    await sendUntilStored(failed.map((f) => f.event));
    const ctx = makeCtx(client.workspace, 'test');
    const stored = (await batchGet(batches.flat().map((e) => usageEventKey(ctx, e.record.id)), true)) as unknown as UsageEventItem[];
    expect(stored.map((item) => item.id).sort()).toEqual(batches.flat().map((e) => e.record.id).sort());
  });

  it('answers a request that runs out of time 503 with Retry-After, never 500', async () => {
    const customer = (await client.post('/v1/customers', { name: 'Slow read', currency: 'EUR' })).body as { id: string };
    slowAnswers('GetItemCommand', 1);
    const reply = await client.get(`/v1/customers/${customer.id}`);
    expect([reply.status, reply.body.code, reply.headers.get('retry-after')]).toEqual([503, 'service_unavailable', '1']);
  });

  it('answers DynamoDB still throttling after the SDK\'s retries 503 with Retry-After, never 500', async () => {
    const customer = (await client.post('/v1/customers', { name: 'Throttled', currency: 'EUR' })).body as { id: string };
    setAfterSendHook((name) => {
      if (name !== 'GetItemCommand') return;
      throw Object.assign(new Error('The level of configured provisioned throughput for the table was exceeded.'), {
        name: 'ProvisionedThroughputExceededException', $fault: 'client', $retryable: { throttling: true },
      });
    });
    const reply = await client.get(`/v1/customers/${customer.id}`);
    expect([reply.status, reply.body.code, reply.headers.get('retry-after')]).toEqual([503, 'service_unavailable', '1']);
  });
});
