import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { isTransient, quarantine } from '../../shared/domain/events/quarantine';
import { processRecord } from '../../shared/domain/events/stream-record';
import { applyUsageRecords } from '../../shared/domain/metering/usage-stream';

/**
 * The table's stream → events and webhook messages, record by record in order. A record that cannot be turned into
 * events (too large, too deep, an unexpected shape: the same failure on every try) is quarantined and skipped, so
 * the records after it, of every workspace, flow on. A transient failure (throttling, network) is reported with
 * everything after it (ReportBatchItemFailures), so the retry resumes there, in order, and nothing is skipped.
 * Usage events are first applied to their aggregates, the batch at once (shared/domain/metering/apply-usage.ts).
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  try {
    // Usage first, for the whole batch at once (batched pre-aggregation); it is idempotent per change, so a failure
    // retries the whole batch safely.
    await applyUsageRecords(event.Records);
  } catch (failure) {
    console.error(JSON.stringify({ level: 'error', stream_usage: true, error: String(failure), stack: (failure as Error)?.stack }));
    return { batchItemFailures: event.Records.slice(0, 1).map((r) => ({ itemIdentifier: r.dynamodb?.SequenceNumber ?? '' })) };
  }
  for (const record of event.Records) {
    try {
      await processRecord(record);
    } catch (error) {
      try {
        if (isTransient(error)) throw error;
        await quarantine(record, error);
      } catch (failure) {
        console.error(JSON.stringify({ level: 'error', stream_event: record.eventID, error: String(failure), stack: (failure as Error)?.stack }));
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
      }
    }
  }
  return { batchItemFailures: [] };
}
