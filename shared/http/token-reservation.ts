/**
 * Per-instance token reservation for the rate limiter (docs/rate-limits.md, "Reservation"). A window's budget is a
 * counter in DynamoDB; an instance takes a block of token numbers from it with one atomic `ADD n size` (which
 * returns the new `n`: the block is `n - size + 1 … n`) and admits requests from that block in memory, one token
 * each, until it is used up or its window ends. Only token numbers up to the limit admit a request, so however many
 * instances reserve at once, a window never admits more than its limit. What blocks cost is the other way: tokens
 * an instance holds but does not use are lost to the others, at most `blockCap(limit) - 1` per instance and window.
 *
 * Block size adapts to the instance's traffic: the requests waiting now, or what the last second's rate predicts
 * for the next `LEAD_MS`, whichever is more, within `blockCap`. A quiet workspace (under 1000 / LEAD_MS = 4
 * requests a second) reserves one token per request: the limit stays exact, as with one counter write per request.
 */

/** How far ahead a block should last, at the rate of the last second. */
export const LEAD_MS = 250;
/** The largest block is the limit divided by this (5%): it bounds what one instance can leave unused in a window. */
export const BLOCK_CAP_DIVISOR = 20;

/** The largest block an instance reserves for a window of `limit` requests: 5% of it, at least one token. */
export const blockCap = (limit: number): number => Math.max(1, Math.floor(limit / BLOCK_CAP_DIVISOR));

/** Tokens to reserve: what is waiting, or what the recent rate predicts for the next LEAD_MS, within the cap. */
export const blockSize = (waiting: number, lastSecondArrivals: number, limit: number): number =>
  Math.min(blockCap(limit), Math.max(1, waiting, Math.floor((lastSecondArrivals * LEAD_MS) / 1000)));

/** A request's verdict: admitted with a token, or refused because the window's budget is handed out. */
export type Verdict =
  | { admitted: true; token: number; remaining: number }
  | { admitted: false; counted: number };

/** Adds `count` to a window's counter and returns its new value (one atomic UpdateItem). */
export type Reserve<K> = (key: K, count: number) => Promise<number>;

/** One request, as the reservations see it. */
export interface TokenRequest<K> {
  /** The workspace and kind: its rate sizes the blocks, whatever the window. */
  rate: string;
  /** The window's counter, as a map key, and as `reserve` takes it. */
  counter: string;
  key: K;
  limit: number;
  /** Now and the window's end on the business clock (ms since the epoch). */
  now: number;
  endsAt: number;
}

/** One window's counter, as this instance knows it. */
interface Bucket {
  /** When the window ends (ms since the epoch): the bucket is dropped after. */
  endsAt: number;
  /** The counter's value after this instance's last reservation: every token up to it is someone's. */
  counted: number;
  /** This instance's unused tokens: `next … last` (empty when next > last). */
  next: number;
  last: number;
  /** The reservation in flight, if any: others wait for it instead of sending their own. */
  pending?: Promise<void>;
  /** Requests of this bucket still without a verdict (for the next block's size). */
  waiting: number;
}

/** Arrivals per (workspace, kind) over whole seconds of the instance's monotonic clock. */
interface Arrivals {
  second: number;
  current: number;
  previous: number;
}

/** Buckets and rates kept at most; ended windows are dropped first, then everything (a memory bound, not a rule). */
const MAX_ENTRIES = 1_000;

export class TokenReservations<K> {
  private readonly buckets = new Map<string, Bucket>();
  private readonly arrivals = new Map<string, Arrivals>();

  /**
   * @param reserve adds to a window's counter, returns its new value.
   * @param monotonicMs the instance's own clock for rates (never the movable business clock).
   */
  constructor(private readonly reserve: Reserve<K>, private readonly monotonicMs: () => number = () => performance.now()) {}

  /**
   * The verdict for one request, if it can be given from memory: a token of this instance's block, or a refusal
   * once the window is known to be handed out. Counts the request's arrival: call it once per request.
   */
  takeNow(request: TokenRequest<K>): Verdict | undefined {
    this.arrive(request.rate);
    return this.fromBucket(this.bucket(request), request.limit);
  }

  /** The verdict, reserving a block from the counter when this instance has no token left. Rejects if that fails. */
  async take(request: TokenRequest<K>): Promise<Verdict> {
    return this.takeNow(request) ?? this.reserveAndTake(request);
  }

  /** The verdict of a request `takeNow` could not answer (its arrival already counted). */
  async reserveAndTake(request: TokenRequest<K>): Promise<Verdict> {
    const { limit } = request;
    const bucket = this.bucket(request);
    bucket.waiting++;
    try {
      for (;;) {
        const verdict = this.fromBucket(bucket, limit);
        if (verdict) return verdict;
        const pending = (bucket.pending ??= this.reserveBlock(bucket, request.key, blockSize(bucket.waiting, this.lastSecond(request.rate), limit), limit));
        try {
          await pending;
        } finally {
          // Whatever its outcome, the next request that finds no token reserves anew.
          if (bucket.pending === pending) bucket.pending = undefined;
        }
      }
    } finally {
      bucket.waiting--;
    }
  }

  private fromBucket(bucket: Bucket, limit: number): Verdict | undefined {
    // Within the limit in force too (the process's limits can change between two requests: tests, the benchmark).
    const last = Math.min(bucket.last, limit);
    if (bucket.next <= last) {
      const token = bucket.next++;
      // What the window still has as far as this instance knows: the tokens no one holds yet, and its own.
      return { admitted: true, token, remaining: Math.max(0, limit - bucket.counted) + (last - token) };
    }
    if (bucket.counted >= limit) return { admitted: false, counted: bucket.counted + 1 };
    return undefined;
  }

  private async reserveBlock(bucket: Bucket, key: K, size: number, limit: number): Promise<void> {
    const counted = await this.reserve(key, size);
    if (!Number.isSafeInteger(counted) || counted < size) throw new Error(`rate-limit counter returned ${String(counted)}`);
    bucket.counted = Math.max(bucket.counted, counted);
    // Only the part of the block within the limit is this instance's to admit; the rest is spent (the window is used up).
    bucket.next = counted - size + 1;
    bucket.last = Math.min(counted, limit);
  }

  private bucket({ counter, now, endsAt }: TokenRequest<K>): Bucket {
    let bucket = this.buckets.get(counter);
    if (!bucket) {
      if (this.buckets.size >= MAX_ENTRIES) {
        for (const [key, old] of this.buckets) if (old.endsAt <= now && !old.pending) this.buckets.delete(key);
        if (this.buckets.size >= MAX_ENTRIES) this.buckets.clear();
      }
      bucket = { endsAt, counted: 0, next: 1, last: 0, waiting: 0 };
      this.buckets.set(counter, bucket);
    }
    return bucket;
  }

  private arrive(rateKey: string): void {
    const second = Math.floor(this.monotonicMs() / 1000);
    const seen = this.arrivals.get(rateKey);
    if (!seen) {
      if (this.arrivals.size >= MAX_ENTRIES) this.arrivals.clear();
      this.arrivals.set(rateKey, { second, current: 1, previous: 0 });
    } else if (seen.second === second) {
      seen.current++;
    } else {
      seen.previous = seen.second === second - 1 ? seen.current : 0;
      seen.current = 1;
      seen.second = second;
    }
  }

  /** Arrivals in the last whole second, or in this one if it already has more. */
  private lastSecond(rateKey: string): number {
    const seen = this.arrivals.get(rateKey);
    if (!seen) return 0;
    const second = Math.floor(this.monotonicMs() / 1000);
    const previous = seen.second === second ? seen.previous : seen.second === second - 1 ? seen.current : 0;
    return Math.max(previous, seen.second === second ? seen.current : 0);
  }
}
