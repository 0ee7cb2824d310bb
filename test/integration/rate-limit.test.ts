import { jest } from '@jest/globals';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { EVENT_SOURCE_TYPES, mapChange } from '../../shared/domain/events/map-change';
import { rateLimitKey, windowOf } from '../../shared/http/rate-limit';
import { blockCap } from '../../shared/http/token-reservation';
import { DEFAULT_RATE_LIMITS, RATE_LIMIT_TYPE, useRateLimits } from '../../shared/http/rate-limit-settings';
import { startTestApi, withEntity, type Client, type Reply, type TestApi } from '../support/api';
import { movableClock } from '../support/clock';

/**
 * Per-workspace rate limits through the local server, against DynamoDB Local, with decisions.md's limits: reads
 * 200 and writes 50 per 10 s. The clock is stopped, so no window ends while a test runs; each test starts 2.5 s into
 * a fresh window (Retry-After is then 8 s). Tests that only need a small budget set one with useRateLimits.
 */
const WINDOW_MS = DEFAULT_RATE_LIMITS.windowSeconds * 1000;
const INTO_WINDOW_MS = 2_500;
const clock = movableClock({ stopped: true });
let api: TestApi;

const windowEnd = () => windowOf(clock.now(), DEFAULT_RATE_LIMITS.windowSeconds).end;
/** Moves the clock 2.5 s into the next window. */
const nextWindow = () => clock.advance(windowEnd().getTime() - clock.now().getTime() + INTO_WINDOW_MS);

beforeAll(async () => {
  api = await startTestApi({ rateLimits: { ...DEFAULT_RATE_LIMITS } });
});
afterAll(async () => {
  await api.close();
  clock.restore();
});
beforeEach(nextWindow);

/** `n` calls of `run`, `concurrency` at a time (several Lambda instances at once, as far as the counter knows). */
async function repeat<T>(n: number, run: (i: number) => Promise<T>, concurrency = 25): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < n; start += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, n - start) }, (_, k) => run(start + k));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

const limitHeaders = (reply: Reply) => ({
  limit: reply.headers.get('x-ratelimit-limit'),
  remaining: reply.headers.get('x-ratelimit-remaining'),
  reset: reply.headers.get('x-ratelimit-reset'),
  retryAfter: reply.headers.get('retry-after'),
});

/** A small budget for the tests that only need to use one up; the API's own limits come back afterwards. */
function smallBudget() {
  const restore = useRateLimits({ reads: 3, writes: 2, windowSeconds: DEFAULT_RATE_LIMITS.windowSeconds });
  return restore;
}

async function customerOf(client: Client): Promise<string> {
  const reply = await client.post('/v1/customers', { name: 'Rate Limited' });
  expect(reply.status).toBe(201);
  return reply.body.id;
}

describe('reads: 200 per 10 s per workspace', () => {
  it('the 201st read in a window is a 429 rate_limited with Retry-After and the X-RateLimit headers; writes keep their own budget', async () => {
    const client = await api.client();
    await withEntity(client);
    const id = await customerOf(client);
    const reset = windowEnd().toISOString();

    const reads = await repeat(200, () => client.get(`/v1/customers/${id}`));
    expect(reads.map((r) => r.status)).toEqual(Array(200).fill(200));
    expect(new Set(reads.map((r) => limitHeaders(r).limit))).toEqual(new Set(['200']));
    expect(new Set(reads.map((r) => limitHeaders(r).reset))).toEqual(new Set([reset]));
    expect(reads.every((r) => limitHeaders(r).retryAfter === null)).toBe(true);
    // Counted once each, atomically, though 25 ran at a time: every remaining count from 199 down to 0, once.
    const remaining = reads.map((r) => Number(limitHeaders(r).remaining)).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => i));

    const limited = await client.get(`/v1/customers/${id}`);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: expect.stringContaining('at most 200'), code: 'rate_limited', request_id: expect.any(String) });
    expect(limitHeaders(limited)).toEqual({ limit: '200', remaining: '0', reset, retryAfter: '8' });
    expect(limited.headers.get('content-type')).toContain('application/json');

    // Whatever the read would have answered: a 429, not a 404.
    expect((await client.get('/v1/customers/cus_01J00000000000000000000000')).status).toBe(429);

    const write = await client.put(`/v1/customers/${id}`, { name: 'Still writable' });
    expect(write.status).toBe(200);
    expect(limitHeaders(write)).toEqual({ limit: '50', remaining: '47', reset, retryAfter: null });
   }, 120_000); // 200 requests: on a busy machine more than jest's default 30 s (the stopped clock keeps the window)

  it('once this instance has seen the window used up, a read past the limit costs no DynamoDB call at all', async () => {
    const restore = smallBudget();
    try {
      const client = await api.client();
      await repeat(3, () => client.get('/v1/customers'));
      const before = dynamoCallCount();
      expect((await client.get('/v1/customers')).status).toBe(429);
      expect(dynamoCallCount() - before).toBe(0);
    } finally {
      restore();
    }
  });
});

describe('across instances', () => {
  it('requests counted elsewhere (other Lambda instances) use up the budget here too: a read answers 429 whatever it found', async () => {
    const client = await api.client();
    const restore = smallBudget();
    try {
      const start = windowOf(clock.now(), DEFAULT_RATE_LIMITS.windowSeconds).start;
      // Three reads and two writes counted by other instances, which this one has never seen.
      for (const [kind, n] of [['read', 3], ['write', 2]] as const) {
        await db.send(new PutCommand({ TableName: tableName(), Item: { ...rateLimitKey(makeCtx(client.workspace, 'test'), kind, start), _type: RATE_LIMIT_TYPE, n } }));
      }
      const read = await client.get('/v1/customers/cus_01J00000000000000000000000');
      expect([read.status, read.body.code, limitHeaders(read).remaining]).toEqual([429, 'rate_limited', '0']);
      const write = await client.post('/v1/invoicing-entities', { name: 'Not created', country: 'FR', currency: 'EUR' });
      expect([write.status, limitHeaders(write).retryAfter]).toEqual([429, '8']);
    } finally {
      restore();
    }
    // Back to 200 reads (the refused read counted too: 5 of 200): the write above never reached the domain.
    const entities = await client.get('/v1/invoicing-entities');
    expect([entities.status, entities.body.meta.total, limitHeaders(entities).remaining]).toEqual([200, 0, '195']);
  });
});

describe('reservation: a burst admitted from blocks of tokens (docs/rate-limits.md, "Reservation")', () => {
  const READS = 100; // blocks of at most blockCap(100) = 5 tokens

  /** Counts the limiter's UpdateItems (one per block reserved) while `run` runs. */
  async function reservationsDuring<T>(run: () => Promise<T>): Promise<{ result: T; reservations: number }> {
    const realSend = db.send.bind(db);
    let reservations = 0;
    const spy = jest.spyOn(db, 'send').mockImplementation(((command: { input: { Key?: { pk?: string } } }) => {
      if (command.input.Key?.pk?.includes('#RATELIMIT#')) reservations++;
      return realSend(command as never);
    }) as never);
    try {
      return { result: await run(), reservations };
    } finally {
      spy.mockRestore();
    }
  }

  it('one instance: exactly the budget is admitted, in fewer UpdateItems than requests, then every request is a 429 with its headers', async () => {
    const restore = useRateLimits({ reads: READS, writes: 50, windowSeconds: DEFAULT_RATE_LIMITS.windowSeconds });
    try {
      const client = await api.client();
      const { result: replies, reservations } = await reservationsDuring(() => repeat(150, () => client.get('/v1/customers')));
      const ok = replies.filter((r) => r.status === 200);
      const limited = replies.filter((r) => r.status === 429);
      expect([ok.length, limited.length]).toEqual([READS, 50]);
      // Every remaining count from 99 down to 0, once: one instance knows the window exactly.
      expect(ok.map((r) => Number(limitHeaders(r).remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: READS }, (_, i) => i));
      for (const reply of limited) {
        expect(reply.body.code).toBe('rate_limited');
        expect(limitHeaders(reply)).toEqual({ limit: String(READS), remaining: '0', reset: windowEnd().toISOString(), retryAfter: '8' });
      }
      // 25 requests at a time: blocks of several tokens, not one UpdateItem per request.
      expect(reservations).toBeLessThan(READS / 2);
      expect(reservations).toBeGreaterThanOrEqual(READS / 5);
    } finally {
      restore();
    }
  }, 60_000);

  it('another instance holding unused tokens: the 429 comes within the documented bound, limit − (N−1)(cap−1) admitted', async () => {
    const restore = useRateLimits({ reads: READS, writes: 50, windowSeconds: DEFAULT_RATE_LIMITS.windowSeconds });
    try {
      const client = await api.client();
      const start = windowOf(clock.now(), DEFAULT_RATE_LIMITS.windowSeconds).start;
      // A second instance reserved a block of the largest size and served one request from it: it holds the rest,
      // which it may never use (its traffic stops, or it is recycled).
      const cap = blockCap(READS);
      const servedElsewhere = 1;
      await db.send(new PutCommand({ TableName: tableName(), Item: { ...rateLimitKey(makeCtx(client.workspace, 'test'), 'read', start), _type: RATE_LIMIT_TYPE, n: cap } }));
      const replies = await repeat(150, () => client.get('/v1/customers'));
      const ok = replies.filter((r) => r.status === 200).length;
      // This instance admits all the window has left, the other's block aside: never more than the limit in all…
      expect(ok).toBe(READS - cap);
      // …and no fewer than the bound of docs/rate-limits.md with N = 2 instances.
      expect(ok + servedElsewhere).toBeGreaterThanOrEqual(READS - (2 - 1) * (cap - 1));
      expect(replies.filter((r) => r.status === 429).every((r) => limitHeaders(r).retryAfter === '8' && limitHeaders(r).remaining === '0')).toBe(true);
    } finally {
      restore();
    }
  }, 60_000);
});

describe('writes: 50 per 10 s per workspace', () => {
  it('the 51st write is a 429 and never reaches the domain: the entity and 49 customers are written, not a 50th customer', async () => {
    const client = await api.client();
    await withEntity(client);
    const created = await repeat(49, (i) => client.post('/v1/customers', { name: `Customer ${i}` }), 10);
    expect(created.map((r) => r.status)).toEqual(Array(49).fill(201));
    expect(limitHeaders(created.find((r) => r.headers.get('x-ratelimit-remaining') === '0')!).limit).toBe('50');

    const limited = await client.post('/v1/customers', { name: 'One too many' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limitHeaders(limited)).toEqual({ limit: '50', remaining: '0', reset: windowEnd().toISOString(), retryAfter: '8' });

    const list = await client.get('/v1/customers?take=100');
    expect(list.status).toBe(200);
    expect(list.body.meta.total).toBe(49);
    expect(list.body.data.map((c: { name: string }) => c.name)).not.toContain('One too many');
   }, 60_000);
});

describe('windows and workspaces', () => {
  it('a new window resets the budget', async () => {
    const restore = smallBudget();
    try {
      const client = await api.client();
      await repeat(3, () => client.get('/v1/customers'));
      const limited = await client.get('/v1/customers');
      expect([limited.status, limitHeaders(limited).retryAfter]).toEqual([429, '8']);

      clock.advance(7_499); // 1 ms before the window ends: still used up
      const late = await client.get('/v1/customers');
      expect([late.status, limitHeaders(late).retryAfter]).toEqual([429, '1']);

      clock.advance(1);
      const fresh = await client.get('/v1/customers');
      expect(fresh.status).toBe(200);
      expect(limitHeaders(fresh)).toEqual({ limit: '3', remaining: '2', reset: windowEnd().toISOString(), retryAfter: null });
      expect(limitHeaders(fresh).reset).toBe(new Date(new Date(limitHeaders(limited).reset!).getTime() + WINDOW_MS).toISOString());
    } finally {
      restore();
    }
  });

  it('two workspaces do not share a budget', async () => {
    const restore = smallBudget();
    try {
      const [a, b] = [await api.client(), await api.client()];
      await repeat(3, () => a.get('/v1/customers'));
      expect((await a.get('/v1/customers')).status).toBe(429);
      const other = await b.get('/v1/customers');
      expect([other.status, limitHeaders(other).remaining]).toEqual([200, '2']);
      // The same workspace's writes are a budget of their own too.
      const write = await a.post('/v1/invoicing-entities', { name: 'Writes are counted apart', country: 'FR', currency: 'EUR' });
      expect([write.status, limitHeaders(write).remaining]).toEqual([201, '1']);
    } finally {
      restore();
    }
  });
});

describe('headers', () => {
  it('are on every response to an authenticated request: errors and idempotent replays too; not on a 401', async () => {
    const client = await api.client();
    const reset = windowEnd().toISOString();
    const notFound = await client.get('/v1/customers/cus_01J00000000000000000000000');
    expect([notFound.status, limitHeaders(notFound)]).toEqual([404, { limit: '200', remaining: '199', reset, retryAfter: null }]);
    const invalid = await client.post('/v1/customers', { name: 42 });
    expect([invalid.status, limitHeaders(invalid)]).toEqual([400, { limit: '50', remaining: '49', reset, retryAfter: null }]);

    const idempotent = (name: string) =>
      api.raw('POST', '/v1/invoicing-entities', {
        headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'idempotency-key': 'rate-limit-replay' },
        body: JSON.stringify({ name, country: 'FR', currency: 'EUR' }),
      });
    const first = await idempotent('Once');
    const replay = await idempotent('Once');
    expect([first.status, replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    // The replay is a request of its own: counted, and its headers are today's, not the stored response's.
    expect([limitHeaders(first).remaining, limitHeaders(replay).remaining]).toEqual(['48', '47']);

    const unauthenticated = await api.raw('GET', '/v1/customers');
    expect([unauthenticated.status, limitHeaders(unauthenticated).limit]).toEqual([401, null]);
  });

  it('are absent, and nothing is counted, when the limiter is switched off', async () => {
    const client = await api.client();
    const restore = useRateLimits(null);
    try {
      // The workspace's first request on this instance also reads its mode (live or test: docs/test-clocks.md), once.
      await client.get('/v1/customers/cus_01J00000000000000000000000');
      const before = dynamoCallCount();
      const reply = await client.get('/v1/customers/cus_01J00000000000000000000000');
      expect([reply.status, limitHeaders(reply).limit, dynamoCallCount() - before]).toEqual([404, null, 1]);
    } finally {
      restore();
    }
  });
});

describe('the counter', () => {
  it('is one item per workspace, kind and window, with a TTL, that never becomes a webhook event', async () => {
    const client = await api.client();
    await repeat(3, () => client.get('/v1/customers'));
    const start = windowOf(clock.now(), DEFAULT_RATE_LIMITS.windowSeconds).start;
    const key = rateLimitKey(makeCtx(client.workspace, 'test'), 'read', start);
    expect(key.pk).toBe(`WS#${client.workspace}#RATELIMIT#read`);
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    expect(Item).toEqual({ ...key, _type: RATE_LIMIT_TYPE, n: 3, ttl: windowEnd().getTime() / 1000 + DEFAULT_RATE_LIMITS.windowSeconds });
    expect(EVENT_SOURCE_TYPES).not.toContain(RATE_LIMIT_TYPE);
    expect(mapChange(undefined, Item)).toEqual([]);
  });
});

describe('fail open', () => {
  it('a failing limiter lets reads and writes through, without the headers, and logs one JSON line per request', async () => {
    const client = await api.client();
    const realSend = db.send.bind(db);
    const failing = jest.spyOn(db, 'send').mockImplementation(((command: { input: { Key?: { pk?: string } } }) => {
      if (command.input.Key?.pk?.includes('#RATELIMIT#')) return Promise.reject(new Error('ProvisionedThroughputExceededException'));
      return realSend(command as never);
    }) as never);
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const read = await client.get('/v1/customers');
      const write = await client.post('/v1/invoicing-entities', { name: 'Through anyway', country: 'FR', currency: 'EUR' });
      expect([read.status, write.status]).toEqual([200, 201]);
      expect([limitHeaders(read).limit, limitHeaders(write).limit]).toEqual([null, null]);
      const lines = logged.mock.calls.map((args) => JSON.parse(String(args[0])));
      expect(lines).toEqual([
        expect.objectContaining({ level: 'error', message: 'rate limiter failed; request let through', workspace_id: client.workspace, kind: 'read' }),
        expect.objectContaining({ level: 'error', message: 'rate limiter failed; request let through', workspace_id: client.workspace, kind: 'write' }),
      ]);
      expect(lines[0].error).toContain('ProvisionedThroughputExceededException');
    } finally {
      failing.mockRestore();
      logged.mockRestore();
    }
    expect((await client.get('/v1/customers')).headers.get('x-ratelimit-remaining')).toBe('199');
  });
});
