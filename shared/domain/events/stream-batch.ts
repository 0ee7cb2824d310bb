import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { eachLimited, pushTo } from '../../concurrency';
import { isTransient } from '../../db/transient';
import { quarantine } from './quarantine';

/** A record whose work must be retried (it and every record after it in the batch), or undefined. */
export type Failure = DynamoDBRecord | undefined;

/** Runs one record's work; a lasting failure quarantines the record, a transient one returns it for retry. */
export async function isolated(record: DynamoDBRecord, work: () => Promise<void>): Promise<Failure> {
  try {
    await work();
  } catch (error) {
    try {
      if (isTransient(error)) throw error;
      await quarantine(record, error);
    } catch (failure) {
      logRetry(record, failure);
      return record;
    }
  }
  return undefined;
}

export function logRetry(record: DynamoDBRecord, failure: unknown): void {
  console.error(JSON.stringify({ level: 'error', stream_event: record.eventID, error: String(failure), stack: (failure as Error)?.stack }));
}

/**
 * The batch response for a failed record (ReportBatchItemFailures): Lambda retries the shard from that sequence
 * number, so everything after it is processed again (idempotently) and nothing after it is lost.
 */
export const response = (failed: Failure): DynamoDBBatchResponse => ({
  batchItemFailures: failed ? [{ itemIdentifier: failed.dynamodb?.SequenceNumber ?? '' }] : [],
});

/** The failure that comes first in the batch (the one Lambda must retry from), of several consumers' or keys'. */
export function earliest(records: readonly DynamoDBRecord[], failures: readonly Failure[]): Failure {
  const position = new Map(records.map((record, index) => [record, index]));
  const failed = failures.filter((f): f is DynamoDBRecord => f !== undefined);
  return failed.sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0))[0];
}

/** The changed item's key: a stream keeps one item's changes in order, and so must the consumers. */
export const itemKeyOf = (record: DynamoDBRecord): string => JSON.stringify([record.dynamodb?.Keys?.pk, record.dynamodb?.Keys?.sk]);

/**
 * Runs `work` on every record of a batch: the records of one item one after the other, in stream order; different
 * items concurrently (at most `limit` at once). A key whose record fails stops there; the other keys stop before any
 * record later in the batch than a failure already seen (it will be processed again anyway). Returns the earliest
 * failed record, so the retry starts there: what ran after it, for other keys, is idempotent and runs again harmlessly.
 */
export async function processByItemKey(records: readonly DynamoDBRecord[], limit: number, work: (record: DynamoDBRecord) => Promise<Failure>): Promise<Failure> {
  const position = new Map(records.map((record, index) => [record, index]));
  const byKey = new Map<string, DynamoDBRecord[]>();
  for (const record of records) pushTo(byKey, itemKeyOf(record), record);
  let firstFailed = Infinity;
  const failures: Failure[] = [];
  await eachLimited([...byKey.values()], limit, async (group) => {
    for (const record of group) {
      if (position.get(record)! > firstFailed) return;
      const failed = await work(record);
      if (failed) {
        failures.push(failed);
        firstFailed = Math.min(firstFailed, position.get(failed) ?? position.get(record)!);
        return;
      }
    }
  });
  return earliest(records, failures);
}
