import { ChangeMessageVisibilityBatchCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { chunksOf, eachLimited, pushTo } from '../../concurrency';
import { deduplicationId, groupId, type DueItem } from './due-item';

/**
 * Where due work waits for a worker (DESIGN.md §16). On AWS an SQS FIFO queue consumed by the worker function
 * (functions/schedules/work.ts); locally an in-process queue drained by N concurrent workers. Either may hand the
 * same item over twice: every kind of work is conditioned on its item's state, so a second run changes nothing.
 */
export interface DueQueue {
  send(items: readonly DueItem[]): Promise<void>;
}

/** The environment variable holding the queue's URL (set on the scheduled function by lib/scheduler.ts). */
export const dueQueueUrlEnv = 'DUE_QUEUE_URL';

/** SQS takes at most 10 messages per SendMessageBatch; this many batches are in flight at once. */
const SQS_BATCH = 10;
const SENDS_IN_FLIGHT = 16;

/** Batches to `sqs`, grouped per item or per entity's renewals (groupId: one worker at a time per group) and deduplicated per item and due date. */
export function sqsDueQueue(queueUrl: string, sqs = new SQSClient({})): DueQueue {
  const sendBatch = async (batch: readonly DueItem[], attempt = 1): Promise<void> => {
    const out = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((item, i) => ({ Id: String(i), MessageBody: JSON.stringify(item), MessageGroupId: groupId(item), MessageDeduplicationId: deduplicationId(item) })),
      }),
    );
    const failed = (out.Failed ?? []).map((f) => batch[Number(f.Id)]!);
    if (failed.length === 0) return;
    // A throttled entry is retried once here; if it fails again the run fails, and the next minute's run sends it again.
    if (attempt >= 2) throw new Error(`SQS refused ${failed.length} due items: ${(out.Failed ?? []).map((f) => f.Code).join(', ')}`);
    await sendBatch(failed, attempt + 1);
  };
  return {
    async send(items) {
      await eachLimited(chunksOf(items, SQS_BATCH), SENDS_IN_FLIGHT, (batch) => sendBatch(batch));
    },
  };
}

/** A message whose work failed: its receipt, and how many times SQS has delivered it. */
export interface FailedMessage {
  receiptHandle: string;
  receiveCount: number;
}

/**
 * When SQS delivers a failed message again: 30 s after its first receive, doubling with each receive, at most 5
 * minutes. Without it, the queue's visibility timeout (6 minutes) would apply, and a failed message holds back its
 * whole message group, an invoicing entity's renewals, for that long at each of its receives.
 */
export const retryDelaySeconds = (receiveCount: number): number => Math.min(30 * 2 ** Math.max(0, receiveCount - 1), 300);

/** Shortens the failed messages' visibility timeouts to retryDelaySeconds (ChangeMessageVisibilityBatch). */
export async function retrySooner(queueUrl: string, failed: readonly FailedMessage[], sqs: SQSClient): Promise<void> {
  for (const batch of chunksOf(failed, SQS_BATCH)) {
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((m, i) => ({ Id: String(i), ReceiptHandle: m.receiptHandle, VisibilityTimeout: retryDelaySeconds(m.receiveCount) })),
      }),
    );
  }
}

export interface LocalQueueOptions {
  /** Workers taking items at once. */
  workers: number;
  /** Receives of one item before it is dead-lettered (SQS's maxReceiveCount). */
  maxReceives: number;
  /** Items a worker takes at once (`drainBatches`; SQS hands the worker function up to 10). */
  batchSize?: number;
}

export interface Drained {
  /** Items received (each counted once, however often it was received). */
  received: number;
  done: number;
  /** Items that failed every receive and were dead-lettered. */
  failed: number;
}

interface Waiting {
  item: DueItem;
  receives: number;
}

/**
 * The local stand-in for the queue and its worker function: `drain` runs `workers` loops that each take the next
 * items and run them. As on SQS FIFO, a message group (groupId: an item, or an entity's renewals) is handed to one
 * worker at a time: a worker takes waiting items of groups no other worker holds, and a worker that finds only held
 * groups waits for one to be released. An item whose run throws goes back to its group (as an SQS message does when
 * its visibility timeout ends) until it has been received `maxReceives` times, then to `deadLetters`.
 */
export class LocalDueQueue implements DueQueue {
  /** Waiting items by group, groups in the order they were first sent; a group is removed once it has none. */
  private groups = new Map<string, Waiting[]>();
  private held = new Set<string>();
  /** Senders still sending (`opened`): until they are done, a worker that finds nothing waits rather than stops. */
  private senders = 0;
  private released: () => void = () => {};
  readonly deadLetters: DueItem[] = [];

  constructor(private readonly options: LocalQueueOptions) {
    if (options.workers < 1 || options.maxReceives < 1) throw new Error('LocalDueQueue: workers and maxReceives are at least 1');
  }

  async send(items: readonly DueItem[]): Promise<void> {
    for (const item of items) this.requeue({ item, receives: 0 });
    this.wake();
  }

  /**
   * Opens the queue to a sender while workers drain it (the scan's later pages arrive as the first are worked, as on
   * AWS): workers keep waiting for items until the returned function says the sender is done.
   */
  opened(): () => void {
    this.senders += 1;
    return () => {
      this.senders -= 1;
      this.wake();
    };
  }

  /** Wakes the workers waiting for an item or a group to be released. */
  private wake(): void {
    const release = this.released;
    this.released = () => {};
    release();
  }

  private requeue(waiting: Waiting): void {
    pushTo(this.groups, groupId(waiting.item), waiting);
  }

  /** Up to `size` waiting items, from the first groups no worker holds, which this worker then holds. */
  private take(size: number): { batch: Waiting[]; groups: string[] } {
    const batch: Waiting[] = [];
    const groups: string[] = [];
    for (const [group, waiting] of this.groups) {
      if (batch.length >= size) break;
      if (this.held.has(group)) continue;
      batch.push(...waiting.splice(0, size - batch.length));
      groups.push(group);
      this.held.add(group);
      if (waiting.length === 0) this.groups.delete(group);
    }
    return { batch, groups };
  }

  /** Each worker takes one item at a time and runs `work` on it; an item whose run throws is received again. */
  async drain(work: (item: DueItem) => Promise<unknown>, onError?: (item: DueItem, error: unknown) => void): Promise<Drained> {
    return this.drainBatches(async ([item]) => {
      try {
        await work(item!);
        return [];
      } catch (error) {
        return [{ item: item!, error }];
      }
    }, onError, 1);
  }

  /**
   * Each worker takes up to `batchSize` items at a time and runs `work` on them, which returns the ones that failed
   * (as the worker function's partial batch failures): those are received again, the others are done.
   */
  async drainBatches(
    work: (items: DueItem[]) => Promise<{ item: DueItem; error: unknown }[]>, onError?: (item: DueItem, error: unknown) => void, batchSize = this.options.batchSize ?? 1,
  ): Promise<Drained> {
    const result: Drained = { received: 0, done: 0, failed: 0 };
    const worker = async () => {
      while (this.senders > 0 || this.groups.size > 0 || this.held.size > 0) {
        const { batch, groups } = this.take(batchSize);
        if (batch.length === 0) {
          // Every waiting item's group is held, or nothing waits yet: wait for a release, a send, or the sender's end.
          await new Promise<void>((resolve) => {
            const before = this.released;
            this.released = () => (before(), resolve());
          });
          continue;
        }
        for (const next of batch) {
          if (next.receives === 0) result.received += 1;
          next.receives += 1;
        }
        const failures = await work(batch.map((b) => b.item));
        const failed = new Set(failures.map((f) => f.item));
        for (const { item, error } of failures) onError?.(item, error);
        for (const next of batch) {
          if (!failed.has(next.item)) result.done += 1;
          else if (next.receives < this.options.maxReceives) this.requeue(next);
          else {
            this.deadLetters.push(next.item);
            result.failed += 1;
          }
        }
        for (const group of groups) this.held.delete(group);
        this.wake();
      }
    };
    await Promise.all(Array.from({ length: this.options.workers }, worker));
    return result;
  }
}
