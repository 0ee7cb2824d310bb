/**
 * Sharded partitions: a collection that one workspace can write faster than one DynamoDB partition takes
 * (1,000 write units/s) is spread over N partitions, the shard chosen from the item's id; a listing reads the
 * shards' heads and merges them (k-way), so it returns the same order a single partition would.
 */

/** FNV-1a: a stable, cheap spread of ids over `shards` partitions. */
export function shardOf(id: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % shards;
}

/**
 * What the merge first asks each of `shards` shards for, to take `count` items: a shard's share of items spread at
 * random is binomial, and its mean plus two standard deviations covers it for ~98 % of the shards, so most pages
 * take one round of Queries, few a second.
 */
export function firstReadSize(count: number, shards: number): number {
  const share = count / shards;
  return Math.ceil(share + 2 * Math.sqrt(share)) || 1;
}

/** One sorted partition, read in the listing's order a page at a time from `cursor` (undefined: its start). */
export type PageReader<T> = (limit: number, cursor: Record<string, unknown> | undefined) => Promise<{ items: T[]; cursor?: Record<string, unknown> }>;

interface Shard<T> {
  read: PageReader<T>;
  buffer: T[];
  at: number;
  cursor?: Record<string, unknown>;
  done: boolean;
  /** The next read's size: about the expected share first, doubled by each refill (a skewed shard is read in few calls). */
  chunk: number;
}

/**
 * The union of sorted partitions in one order (`descending`: largest `sortKey` first), read lazily: each shard is
 * asked first for about its share of what is taken, and again only when the merge needs its next item.
 * Sort keys are unique across shards (an item lives in one), so the order is total and stable.
 */
export class MergedReader<T> {
  private readonly shards: Shard<T>[];
  private started = false;

  constructor(readers: PageReader<T>[], private readonly sortKey: (item: T) => string, private readonly descending: boolean) {
    this.shards = readers.map((read) => ({ read, buffer: [], at: 0, done: false, chunk: 1 }));
  }

  /** True once every shard is read to its end and handed out. */
  get exhausted(): boolean {
    return this.shards.every((s) => s.done && s.at >= s.buffer.length);
  }

  /** The next `count` items in order (fewer when the shards run out). */
  async take(count: number): Promise<T[]> {
    if (!this.started) {
      this.started = true;
      for (const shard of this.shards) shard.chunk = firstReadSize(count, this.shards.length);
    }
    const taken: T[] = [];
    while (taken.length < count) {
      const empty = this.shards.filter((s) => s.at >= s.buffer.length && !s.done);
      await Promise.all(empty.map((shard) => this.refill(shard, count - taken.length)));
      const next = this.head();
      if (!next) break;
      taken.push(next.buffer[next.at++]!);
    }
    return taken;
  }

  private head(): Shard<T> | undefined {
    let best: Shard<T> | undefined;
    for (const shard of this.shards) {
      if (shard.at >= shard.buffer.length) continue;
      if (!best || this.before(shard.buffer[shard.at]!, best.buffer[best.at]!)) best = shard;
    }
    return best;
  }

  private before(a: T, b: T): boolean {
    const [ka, kb] = [this.sortKey(a), this.sortKey(b)];
    return this.descending ? ka > kb : ka < kb;
  }

  private async refill(shard: Shard<T>, wanted: number): Promise<void> {
    const page = await shard.read(Math.max(1, Math.min(shard.chunk, wanted)), shard.cursor);
    shard.buffer = page.items;
    shard.at = 0;
    shard.cursor = page.cursor;
    shard.done = page.cursor === undefined;
    shard.chunk *= 2;
  }
}
