import type { DynamoDBRecord } from 'aws-lambda';
import { processByItemKey, response } from '../../shared/domain/events/stream-batch';
import { feeds } from '../../shared/domain/events/stream-consumers';

/** A stream record of item `key` with sequence number `seq`. */
const record = (key: string, seq: number, type = 'customer'): DynamoDBRecord => ({
  eventID: `e${seq}`,
  dynamodb: { SequenceNumber: String(seq), Keys: { pk: { S: `WS#ws_1#${key}` }, sk: { S: 'A' } }, NewImage: { _type: { S: type } } },
});
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a stream batch worked concurrently, in order per item', () => {
  const batch = [record('a', 1), record('b', 2), record('a', 3), record('c', 4), record('b', 5), record('a', 6)];

  it('works different items at once and one item\'s changes in stream order', async () => {
    const started: number[] = [];
    const open = new Set<string>();
    const finished: number[] = [];
    let running = 0;
    let most = 0;
    const failed = await processByItemKey(batch, 3, async (r) => {
      const seq = Number(r.dynamodb!.SequenceNumber);
      started.push(seq);
      // Item a's next change starts only once its previous one finished.
      expect(open.has(r.dynamodb!.Keys!.pk!.S!)).toBe(false);
      open.add(r.dynamodb!.Keys!.pk!.S!);
      most = Math.max(most, ++running);
      await settle();
      running -= 1;
      open.delete(r.dynamodb!.Keys!.pk!.S!);
      finished.push(seq);
      return undefined;
    });
    expect(failed).toBeUndefined();
    expect(most).toBe(3);
    expect(started.filter((s) => [1, 3, 6].includes(s))).toEqual([1, 3, 6]);
    expect(finished.indexOf(1)).toBeLessThan(finished.indexOf(3));
    expect(finished.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reports the earliest failed record, however the keys finished, and works nothing of that item after it', async () => {
    const worked: number[] = [];
    const failed = await processByItemKey(batch, 3, async (r) => {
      const seq = Number(r.dynamodb!.SequenceNumber);
      if (seq === 5) return r; // b fails at 5 first (c's 4 is later to start)…
      if (seq === 3) {
        await settle();
        await settle();
        return r; // …then a fails at 3, earlier in the batch: the retry must start there
      }
      worked.push(seq);
      return undefined;
    });
    expect(response(failed)).toEqual({ batchItemFailures: [{ itemIdentifier: '3' }] });
    expect(worked).not.toContain(6); // item a stopped at its failure
  });

  it('skips records later than a failure already seen: the retry processes them', async () => {
    const worked: number[] = [];
    const failed = await processByItemKey(batch, 1, async (r) => {
      const seq = Number(r.dynamodb!.SequenceNumber);
      if (seq === 1) return r;
      worked.push(seq);
      return undefined;
    });
    expect(failed?.dynamodb?.SequenceNumber).toBe('1');
    expect(worked).toEqual([]);
  });
});

describe('which consumer a stream record feeds', () => {
  it('gives usage events to the usage consumer, and item types that produce events to the message consumer', () => {
    expect([feeds('usage', record('x', 1, 'usage_event')), feeds('messages', record('x', 1, 'customer'))]).toEqual([true, true]);
    expect([feeds('usage', record('x', 1, 'customer')), feeds('messages', record('x', 1, 'webhook_message'))]).toEqual([false, false]);
    const removal: DynamoDBRecord = { dynamodb: { OldImage: { _type: { S: 'usage_event' } } } };
    expect(feeds('usage', removal)).toBe(true);
  });
});
