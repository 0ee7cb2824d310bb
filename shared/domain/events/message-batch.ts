import type { DynamoDBRecord } from 'aws-lambda';
import { isolated, processByItemKey, type Failure } from './stream-batch';
import { applyAnalyticsRecord } from '../analytics/stream';
import { processRecord } from './stream-record';

/** Items of a batch worked at once (each item's changes in order): a batch of 100 takes about 100 / this × one record's time. */
export const PARALLEL_ITEMS = 16;

/**
 * The message consumer's batch: each record → its events, messages, deliveries and emails (processRecord), then the
 * revenue analytics it moves (each exactly once, so a retry of the record redoes neither),
 * records of different items concurrently, one item's in stream order. A record that fails for good is quarantined
 * and skipped; a transient failure returns the earliest failed record, to be retried from (stream-batch.ts).
 */
export const consumeMessages = (records: readonly DynamoDBRecord[]): Promise<Failure> =>
  processByItemKey(records, PARALLEL_ITEMS, (record) => isolated(record, async () => {
    await processRecord(record);
    await applyAnalyticsRecord(record);
  }));
