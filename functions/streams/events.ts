import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { isTransient, quarantine } from '../../shared/domain/events/quarantine';
import { processRecord } from '../../shared/domain/events/stream-record';

/**
 * The table's stream → events and webhook messages, record by record in order. A record that cannot be turned into
 * events (too large, too deep, an unexpected shape: the same failure on every try) is quarantined and skipped, so
 * the records after it, of every workspace, flow on. A transient failure (throttling, network) is reported with
 * everything after it (ReportBatchItemFailures), so the retry resumes there, in order, and nothing is skipped.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
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
