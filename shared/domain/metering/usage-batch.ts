import type { DynamoDBRecord } from 'aws-lambda';
import { isTransient } from '../../db/transient';
import { isolated, logRetry, processByItemKey, type Failure } from '../events/stream-batch';
import { applyUsageRecords } from './usage-stream';

/** Records applied at once when a batch is applied record by record (after a lasting failure of the whole batch). */
const PARALLEL_RECORDS = 8;

/**
 * The usage consumer's batch: usage events applied to their aggregates and credits, the whole batch at once
 * (batched pre-aggregation, apply-usage.ts). A transient failure retries the batch (every change is applied once,
 * however often: a marker per change). A lasting one applies the batch again one record at a time, each item's
 * records in order, so only a record that fails on its own is quarantined.
 */
export async function consumeUsage(records: readonly DynamoDBRecord[]): Promise<Failure> {
  if (records.length === 0) return undefined;
  try {
    await applyUsageRecords(records);
    return undefined;
  } catch (failure) {
    if (isTransient(failure)) {
      logRetry(records[0]!, failure);
      return records[0];
    }
  }
  return processByItemKey(records, PARALLEL_RECORDS, (record) => isolated(record, () => applyUsageRecords([record])));
}
