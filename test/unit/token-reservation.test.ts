import fc from 'fast-check';
import { blockCap, blockSize, LEAD_MS, TokenReservations, type TokenRequest, type Verdict } from '../../shared/http/token-reservation';

/**
 * The rate limiter's per-instance token reservation (shared/http/token-reservation.ts, docs/rate-limits.md
 * "Reservation"), against an in-memory counter that behaves as the DynamoDB item does: `ADD n count` is atomic and
 * returns the new `n`. Instances are TokenReservations objects sharing that counter; fast-check's scheduler decides
 * in which order requests start and reservations come back.
 */

const WINDOW_END = 10_000;
const request = (limit: number, counter = 'WS#a#RATELIMIT#read|w0'): TokenRequest<string> => ({
  rate: 'WS#a#RATELIMIT#read', counter, key: counter, limit, now: 0, endsAt: WINDOW_END,
});

/** The counter item: one value per key, `ADD` atomic. Records every block it hands out, by instance. */
function sharedCounter() {
  const values = new Map<string, number>();
  const blocks: { instance: number; first: number; last: number }[] = [];
  const add = (instance: number, key: string, count: number): number => {
    const n = (values.get(key) ?? 0) + count;
    values.set(key, n);
    blocks.push({ instance, first: n - count + 1, last: n });
    return n;
  };
  return { add, blocks, value: (key: string) => values.get(key) ?? 0 };
}

describe('block size', () => {
  it('is between 1 and the cap (5% of the limit), covers what waits, and is one token for a quiet workspace', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 1e5 }), (limit, waiting, arrivals) => {
        const size = blockSize(waiting, arrivals, limit);
        expect(size).toBeGreaterThanOrEqual(1);
        expect(size).toBeLessThanOrEqual(blockCap(limit));
        expect(size).toBeGreaterThanOrEqual(Math.min(waiting, blockCap(limit)));
        // Fewer arrivals a second than one per LEAD_MS: nothing reserved ahead, only what waits.
        if (arrivals < 1000 / LEAD_MS) expect(size).toBe(Math.min(waiting, blockCap(limit)));
      }),
    );
    expect([blockCap(200), blockCap(50), blockCap(19), blockCap(1)]).toEqual([10, 2, 1, 1]);
  });

  it('grows with the instance\'s rate: one UpdateItem per request when quiet, one per block under load', async () => {
    const counter = sharedCounter();
    let now = 0;
    const calls: number[] = [];
    const instance = new TokenReservations<string>(async (key, count) => (calls.push(count), counter.add(0, key, count)), () => now);
    const limit = 1_000_000;
    // Quiet: one request a second, ten times: ten blocks of one.
    for (let i = 0; i < 10; i++, now += 1000) expect((await instance.take(request(limit))).admitted).toBe(true);
    expect(calls).toEqual(Array(10).fill(1));
    // Busy: 1,000 requests a second (one a millisecond) for two seconds: a block lasts LEAD_MS of them.
    calls.length = 0;
    for (let i = 0; i < 2000; i++, now += 1) await instance.take(request(limit));
    expect(calls.length).toBeLessThan(2000 / 50);
    expect(Math.max(...calls)).toBe(LEAD_MS);
  });
});

describe('one instance', () => {
  it('admits exactly min(requests, limit), each with its own token; the remaining count it reports is exact', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 200 }), fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 20 }),
        async (s, limit, count, steps) => {
          const counter = sharedCounter();
          let now = 0;
          const instance = new TokenReservations<string>(s.scheduleFunction(async (key: string, n: number) => counter.add(0, key, n)), () => now);
          const verdicts = Array.from({ length: count }, (_, i) =>
            s.schedule(Promise.resolve(i)).then(() => {
              now += steps[i % steps.length]!;
              return instance.take(request(limit));
            }));
          await s.waitFor(Promise.all(verdicts));
          const admitted = (await Promise.all(verdicts)).filter((v): v is Extract<Verdict, { admitted: true }> => v.admitted);
          expect(admitted.length).toBe(Math.min(count, limit));
          expect(new Set(admitted.map((v) => v.token)).size).toBe(admitted.length);
          expect(admitted.every((v) => v.token >= 1 && v.token <= limit && v.remaining === limit - v.token)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a failed reservation fails every request waiting for it (the limiter then lets them through) and loses no token', async () => {
    const counter = sharedCounter();
    let failing = true;
    const instance = new TokenReservations<string>(async (key, count) => {
      if (failing) throw new Error('ProvisionedThroughputExceededException');
      return counter.add(0, key, count);
    });
    const results = await Promise.allSettled([1, 2, 3].map(() => instance.take(request(10))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    failing = false;
    expect(await instance.take(request(10))).toEqual({ admitted: true, token: 1, remaining: 9 });
  });

  it('a new window is a new counter: tokens of the old one are not used in it, and it starts whole', async () => {
    const counter = sharedCounter();
    let now = 0;
    const instance = new TokenReservations<string>(async (key, count) => counter.add(0, key, count), () => now);
    for (let i = 0; i < 300; i++, now += 1) await instance.take(request(100, 'w0'));
    expect(await instance.take(request(100, 'w0'))).toEqual({ admitted: false, counted: expect.any(Number) });
    const next = await instance.take(request(100, 'w1'));
    expect(next).toMatchObject({ admitted: true, remaining: 99 });
    expect(counter.value('w1')).toBeLessThanOrEqual(blockCap(100));
  });
});

describe('N instances sharing one counter', () => {
  it('never admit more than the limit in total, each only tokens of its own blocks, holding at most cap − 1 unused; a 429 comes no earlier than limit − (N−1)(cap−1)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 6 }),
        // Runs of requests on one instance, each at its own pace: traffic moves between instances, leaving blocks
        // unused. After each request, `settle` of the reservations in flight (any of them) come back.
        fc.array(
          fc.record({ instance: fc.nat(), count: fc.integer({ min: 1, max: 60 }), step: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 300 })), settle: fc.integer({ min: 0, max: 2 }) }),
          { maxLength: 12 },
        ),
        async (s, limit, n, runs) => {
          const arrivals = runs.flatMap(({ count, ...arrival }) => Array.from({ length: count }, () => arrival));
          const counter = sharedCounter();
          let now = 0;
          const instances = Array.from({ length: n }, (_, i) =>
            new TokenReservations<string>(s.scheduleFunction(async (key: string, count: number) => counter.add(i, key, count)), () => now));
          const verdicts: Promise<{ at: number; verdict: Verdict }>[] = [];
          for (const { instance, step, settle } of arrivals) {
            now += step;
            const at = instance % n;
            verdicts.push(instances[at]!.take(request(limit)).then((verdict) => ({ at, verdict })));
            for (let k = 0; k < settle && s.count() > 0; k++) await s.waitOne();
          }
          await s.waitFor(Promise.all(verdicts));
          const results = await Promise.all(verdicts);
          const admitted = results.filter((r) => r.verdict.admitted);
          const tokens = admitted.map((r) => (r.verdict as Extract<Verdict, { admitted: true }>).token);

          // No over-admission: distinct token numbers, none above the limit.
          expect(admitted.length).toBeLessThanOrEqual(limit);
          expect(new Set(tokens).size).toBe(tokens.length);
          expect(tokens.every((t) => t >= 1 && t <= limit)).toBe(true);
          // An instance admits only tokens of blocks it reserved itself.
          for (const r of admitted) {
            const token = (r.verdict as Extract<Verdict, { admitted: true }>).token;
            expect(counter.blocks.some((b) => b.instance === r.at && b.first <= token && token <= b.last)).toBe(true);
          }
          // Each instance admits at most what it reserved (within the limit), and holds at most cap − 1 tokens unused.
          for (let i = 0; i < n; i++) {
            const reserved = counter.blocks.filter((b) => b.instance === i).reduce((sum, b) => sum + Math.max(0, Math.min(b.last, limit) - b.first + 1), 0);
            const unused = reserved - admitted.filter((r) => r.at === i).length;
            expect(unused).toBeGreaterThanOrEqual(0);
            expect(unused).toBeLessThanOrEqual(blockCap(limit) - 1);
          }
          // The documented bound on under-admission that follows: only the others can hold unused tokens.
          if (results.some((r) => !r.verdict.admitted)) {
            expect(admitted.length).toBeGreaterThanOrEqual(limit - (n - 1) * (blockCap(limit) - 1));
          } else {
            expect(admitted.length).toBe(arrivals.length);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
