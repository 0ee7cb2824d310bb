import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { isTransient, quarantine } from '../../shared/domain/events/quarantine';
import { processRecord } from '../../shared/domain/events/stream-record';
import { applyUsageRecords } from '../../shared/domain/metering/usage-stream';
import { linkKeyReady } from '../../shared/pages/link-key';

type Failure = DynamoDBBatchResponse | undefined;

/**
 * The table's stream → usage aggregates, then events and webhook messages, record by record in order. A record that
 * cannot be processed (too large, too deep, an unexpected shape: the same failure on every try) is quarantined and
 * skipped, so the records after it, of every workspace, flow on. A transient failure (throttling, network) is
 * reported with everything after it (ReportBatchItemFailures), so the retry resumes there, in order, and nothing is
 * skipped. Both steps are idempotent per change, so a retried batch applies nothing twice.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  await linkKeyReady(); // invoices and quotes in events carry signed page links
  const usageFailure = await applyUsage(event.Records);
  if (usageFailure) return usageFailure;
  for (const record of event.Records) {
    const failure = await isolated(record, () => processRecord(record));
    if (failure) return failure;
  }
  return { batchItemFailures: [] };
}

/**
 * Usage events applied to their aggregates and credits, the whole batch at once (batched pre-aggregation,
 * shared/domain/metering/apply-usage.ts). If that fails for good, the batch is applied again one record at a time,
 * so only a record that fails on its own is quarantined.
 */
async function applyUsage(records: DynamoDBRecord[]): Promise<Failure> {
  try {
    await applyUsageRecords(records);
    return undefined;
  } catch (failure) {
    if (isTransient(failure)) return retryFrom(records[0], failure);
  }
  for (const record of records) {
    const failure = await isolated(record, () => applyUsageRecords([record]));
    if (failure) return failure;
  }
  return undefined;
}

/** Runs one record's work; a lasting failure quarantines the record, a transient one retries from it. */
async function isolated(record: DynamoDBRecord, work: () => Promise<void>): Promise<Failure> {
  try {
    await work();
  } catch (error) {
    try {
      if (isTransient(error)) throw error;
      await quarantine(record, error);
    } catch (failure) {
      return retryFrom(record, failure);
    }
  }
  return undefined;
}

function retryFrom(record: DynamoDBRecord | undefined, failure: unknown): DynamoDBBatchResponse {
  console.error(JSON.stringify({ level: 'error', stream_event: record?.eventID, error: String(failure), stack: (failure as Error)?.stack }));
  return { batchItemFailures: record ? [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] : [] };
}
