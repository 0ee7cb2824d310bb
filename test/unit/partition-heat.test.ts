import { marshall } from '@aws-sdk/util-dynamodb';
import { tableDefinition } from '../../shared/db/table-definition';
import {
  heatOf, indexEntry, itemSize, numberSize, readCost, readUnits, writeCost, writeUnits, type Item, type Operation,
} from '../bench/partition-heat';

const item = (value: Record<string, unknown>): Item => marshall(value) as Item;

describe('item size, by DynamoDB’s rules (attribute names + values)', () => {
  it('counts a string as the UTF-8 bytes of its name and of its value', () => {
    expect(itemSize(item({ a: 'hello' }))).toBe(1 + 5);
    expect(itemSize(item({ name: 'é€' }))).toBe(4 + 2 + 3);
  });

  it('counts a number as 1 byte per two significant digits plus 1, leading and trailing zeros trimmed', () => {
    expect(numberSize('7')).toBe(2);
    expect(numberSize('123')).toBe(3);
    expect(numberSize('1000')).toBe(2);
    expect(numberSize('0.05')).toBe(2);
    expect(numberSize('-12.50')).toBe(3);
    expect(numberSize('12345678901234567890')).toBe(11);
    expect(itemSize(item({ n: 4999 }))).toBe(1 + 3);
  });

  it('counts binary by its raw bytes, and a Boolean or null as 1 byte', () => {
    expect(itemSize({ b: { B: new Uint8Array([1, 2, 3]) } })).toBe(1 + 3);
    expect(itemSize(item({ ok: true, gone: null }))).toBe(2 + 1 + 4 + 1);
  });

  it('gives a list or map 3 bytes, and 1 byte per element (a map element with its name)', () => {
    expect(itemSize(item({ l: [] }))).toBe(1 + 3);
    expect(itemSize(item({ l: ['ab', 1] }))).toBe(1 + 3 + (1 + 2) + (1 + 2));
    expect(itemSize(item({ m: { x: 'ab' } }))).toBe(1 + 3 + (1 + 1 + 2));
    expect(itemSize(item({ m: { inner: { y: [true] } } }))).toBe(1 + 3 + (1 + 5 + (3 + (1 + 1 + (3 + (1 + 1))))));
  });

  it('counts a set as the sum of its members', () => {
    expect(itemSize(item({ s: new Set(['ab', 'cde']) }))).toBe(1 + 5);
    expect(itemSize(item({ s: new Set([10, 123]) }))).toBe(1 + 2 + 3);
  });
});

describe('capacity units', () => {
  it('rounds writes up per KB begun, at least one, and doubles them in a transaction', () => {
    expect([writeUnits(0), writeUnits(1024), writeUnits(1025), writeUnits(3000)]).toEqual([1, 1, 2, 3]);
    expect([writeUnits(500, true), writeUnits(1025, true)]).toEqual([2, 4]);
  });

  it('rounds reads up per 4 KB begun: one unit strongly consistent, half eventually, two in a transaction', () => {
    expect([readUnits(0, 'strong'), readUnits(4096, 'strong'), readUnits(4097, 'strong')]).toEqual([1, 1, 2]);
    expect([readUnits(4097, 'eventual'), readUnits(100, 'transactional')]).toEqual([1, 2]);
  });

  it('rounds a Query once over all it read, not per item', () => {
    const page = [1, 2].map((i) => item({ pk: 'P', sk: String(i), body: 'x'.repeat(3000) }));
    const touches = readCost(page, 'table', 'eventual', (i) => i.pk!.S!);
    expect(touches).toEqual([{ index: 'table', partition: 'P', wcu: 0, rcu: 1 }]);
  });

  it('charges a read that found nothing the minimum, on the partition it named', () => {
    expect(readCost([], 'table', 'strong', () => 'unused', 'P')).toEqual([{ index: 'table', partition: 'P', wcu: 0, rcu: 1 }]);
  });
});

/** An item carrying the keys of every index of the table definition, its partition key named after the index. */
const indexedItem = (extra: Record<string, unknown> = {}) =>
  item({
    pk: 'WS#w#INV#inv_1', sk: 'INV', lf: { status: 'draft' }, body: 'x'.repeat(2_000),
    ...Object.fromEntries(tableDefinition.globalIndexes.flatMap((i) => [[i.partitionKey, `P-${i.name}`], [i.sortKey, `S-${i.name}`]])),
    ...extra,
  });

describe('write cost on the table and its indexes (from the table definition)', () => {
  it('puts a new item on its table partition and on each index partition its keys name', () => {
    const touches = writeCost(undefined, indexedItem());
    expect(touches[0]).toEqual({ index: 'table', partition: 'WS#w#INV#inv_1', wcu: 3, rcu: 0 });
    for (const index of tableDefinition.globalIndexes) {
      expect(touches.filter((t) => t.index === index.name)).toEqual([{ index: index.name, partition: `P-${index.name}`, wcu: expect.any(Number), rcu: 0 }]);
    }
  });

  it('sizes an index entry by its projection: keys and included attributes only, or the whole item', () => {
    const written = indexedItem();
    for (const index of tableDefinition.globalIndexes) {
      const entry = indexEntry(written, index)!;
      if (index.projection.type === 'ALL') expect(entry).toEqual(written);
      else {
        expect(entry.body).toBeUndefined();
        expect(Object.keys(entry).sort()).toEqual(
          ['pk', 'sk', index.partitionKey, index.sortKey, ...(index.projection.type === 'INCLUDE' ? index.projection.attributes : [])].sort(),
        );
      }
    }
    const units = Object.fromEntries(writeCost(undefined, written).slice(1).map((t) => [t.index, t.wcu]));
    for (const index of tableDefinition.globalIndexes) expect(units[index.name]).toBe(index.projection.type === 'ALL' ? 3 : 1);
  });

  it('leaves an item out of an index whose keys it lacks (sparse)', () => {
    const { gsi4pk: _pk, gsi4sk: _sk, ...rest } = indexedItem();
    expect(writeCost(undefined, rest).map((t) => t.index)).not.toContain('gsi4');
  });

  it('doubles the table units in a transaction, not the index writes', () => {
    const plain = writeCost(undefined, indexedItem());
    const transactional = writeCost(undefined, indexedItem(), { transactional: true });
    expect(transactional[0]!.wcu).toBe(2 * plain[0]!.wcu);
    expect(transactional.slice(1)).toEqual(plain.slice(1));
  });

  it('charges the larger of the item before and after', () => {
    const big = indexedItem({ body: 'x'.repeat(5_000) });
    expect(writeCost(big, indexedItem())[0]!.wcu).toBe(6);
  });

  it('moves an index entry whose key changed (a delete and a put), rewrites one whose projected attributes changed, and leaves the others', () => {
    const before = indexedItem();
    const moved = writeCost(before, indexedItem({ gsi4sk: 'S-later' })).filter((t) => t.index === 'gsi4');
    expect(moved).toHaveLength(2);
    const changed = writeCost(before, indexedItem({ lf: { status: 'issued' } }));
    expect(changed.filter((t) => t.index === 'gsi1')).toHaveLength(1);
    expect(changed.filter((t) => t.index === 'gsi3' || t.index === 'gsi4')).toHaveLength(0);
    expect(changed.filter((t) => t.index === 'gsi2')).toHaveLength(1);
    const left = writeCost(before, Object.fromEntries(Object.entries(before).filter(([name]) => name !== 'gsi4pk')));
    expect(left.filter((t) => t.index === 'gsi4')).toEqual([{ index: 'gsi4', partition: 'P-gsi4', wcu: 1, rcu: 0 }]);
  });

  it('charges a ConditionCheck or a failed write its table units and nothing on the indexes', () => {
    expect(writeCost(indexedItem(), indexedItem(), { transactional: true, changed: false })).toEqual([{ index: 'table', partition: 'WS#w#INV#inv_1', wcu: 6, rcu: 0 }]);
  });
});

describe('heat of a workload', () => {
  const op = (touches: Operation['touches'], transactionItems?: string[]): Operation => ({ command: 'TransactWriteItems', touches, transactionItems });

  it('projects the hottest partition’s units per unit of work on AWS’s limits', () => {
    const ops = [1, 2, 3, 4].map(() => op([{ index: 'table', partition: 'HOT', wcu: 4, rcu: 1 }, { index: 'gsi1', partition: 'LIST', wcu: 1, rcu: 0 }]));
    const heat = heatOf(ops, 4);
    expect(heat.hottestWrite).toMatchObject({ index: 'table', partition: 'HOT', perUnit: 4 });
    expect(heat.hottestRead).toMatchObject({ partition: 'HOT', perUnit: 1 });
    expect(heat.partitionCeiling).toBe(250);
    expect(heat.partitions[0]!.partition).toBe('HOT');
  });

  it('gives the hottest item its share of the transactions and its ceiling of 40 transactions/s', () => {
    // Two transactions per invoice (create, validate), the counter in the creation only.
    const ops = Array.from({ length: 10 }, (_, i) => [op([], [`inv${i}`, 'COUNTER']), op([], [`inv${i}`, `ENTITY${i % 2}`])]).flat();
    const heat = heatOf(ops, 10);
    expect(heat.items[0]).toMatchObject({ item: 'COUNTER', transactions: 10, share: 0.5, perUnit: 1, ceiling: 40 });
    expect(heat.items.find((i) => i.item === 'ENTITY0')).toMatchObject({ share: 0.25, ceiling: 80 });
  });
});
