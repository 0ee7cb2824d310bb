import fc from 'fast-check';
import { MergedReader, shardOf, type PageReader } from '../../shared/db/shards';

/**
 * A sorted partition served as DynamoDB serves a Query: at most `limit` items from the cursor, in the listing's
 * order, fewer when `maxPage` (the 1 MB cap) cuts the page, and a cursor while items remain. Records each call.
 */
function partition(keys: string[], descending: boolean, maxPage = Infinity, calls: number[] = []): PageReader<string> {
  const sorted = [...keys].sort();
  if (descending) sorted.reverse();
  return async (limit, cursor) => {
    calls.push(limit);
    const from = cursor ? Number(cursor.at) : 0;
    const to = Math.min(sorted.length, from + limit, from + maxPage);
    return { items: sorted.slice(from, to), cursor: to < sorted.length ? { at: to } : undefined };
  };
}

const uniqueKeys = fc.uniqueArray(fc.string({ unit: fc.constantFrom('0', '1', '2', 'a', 'b', 'z'), minLength: 1, maxLength: 6 }), { maxLength: 60 });

describe('the k-way merge of sharded partitions', () => {
  it('spreads ids over every shard, and always puts an id in the same one', () => {
    const counts = new Array<number>(16).fill(0);
    for (let i = 0; i < 16_000; i++) counts[shardOf(`msg_01JD${i.toString(36).padStart(22, '0')}`, 16)]! += 1;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1_200);
    expect(shardOf('msg_01JDXYZ', 16)).toBe(shardOf('msg_01JDXYZ', 16));
  });

  it('lists newest first across shards, whichever shard holds the newest', async () => {
    const merged = new MergedReader([partition(['msg_1', 'msg_4'], true), partition(['msg_2', 'msg_6'], true), partition(['msg_5'], true)], (k) => k, true);
    expect(await merged.take(3)).toEqual(['msg_6', 'msg_5', 'msg_4']);
    expect(merged.exhausted).toBe(false);
    expect(await merged.take(3)).toEqual(['msg_2', 'msg_1']);
    expect(merged.exhausted).toBe(true);
  });

  it('asks each shard for about its share of the page, and a skewed shard in a few growing reads', async () => {
    const even = Array.from({ length: 8 }, () => [] as number[]);
    const evenShards = even.map((calls, s) => partition(Array.from({ length: 20 }, (_, i) => `k${String(i * 8 + s).padStart(3, '0')}`), true, Infinity, calls));
    expect(await new MergedReader(evenShards, (k) => k, true).take(51)).toHaveLength(51);
    expect(even.map((calls) => calls.length)).toEqual(new Array(8).fill(1)); // ⌈6.4 + 2√6.4⌉ = 12 each, once

    const skewed: number[] = [];
    const shards = [partition(Array.from({ length: 200 }, (_, i) => `k${String(i).padStart(3, '0')}`), true, Infinity, skewed), partition([], true)];
    expect(await new MergedReader(shards, (k) => k, true).take(101)).toHaveLength(101);
    expect(skewed).toEqual([65, 36]); // ⌈50.5 + 2√50.5⌉, then what the page still needs (doubling would ask more)
  });

  it('equals one sorted list, in either order, however the items are sharded, paged and taken', async () => {
    await fc.assert(
      fc.asyncProperty(
        uniqueKeys,
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (keys, shardCount, maxPage, takes, descending) => {
          const shards = Array.from({ length: shardCount }, (_, s) => keys.filter((k) => shardOf(k, shardCount) === s));
          const merged = new MergedReader(shards.map((s) => partition(s, descending, maxPage)), (k) => k, descending);
          const listed: string[] = [];
          for (const count of takes) {
            const taken = await merged.take(count);
            expect(taken.length).toBeLessThanOrEqual(count);
            if (taken.length < count) expect(merged.exhausted).toBe(true);
            listed.push(...taken);
          }
          const expected = [...keys].sort();
          if (descending) expected.reverse();
          expect(listed).toEqual(expected.slice(0, listed.length));
          expect(listed.length).toBe(Math.min(keys.length, takes.reduce((a, b) => a + b, 0)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
