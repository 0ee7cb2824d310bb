import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { makeCtx } from '../../shared/context';
import { mapChange, workspaceOf } from '../../shared/domain/events/map-change';
import { recordEvents } from '../../shared/domain/events/record-events';
import { scheduleDeliveries } from '../../shared/domain/webhooks/schedule-deliveries';
import { countEvent } from '../../shared/observability/business-metrics';
import { publishMetrics } from '../../shared/observability/metrics';

type Image = Record<string, unknown>;
const image = (raw: unknown): Image | undefined => (raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined);

/**
 * The table's stream → events and webhook messages. Records are processed in order; the first one that fails is
 * reported with everything after it (ReportBatchItemFailures), so a retry resumes there and nothing is skipped.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  for (const record of event.Records) {
    try {
      await processRecord(record);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', stream_event: record.eventID, error: String(error), stack: (error as Error)?.stack }));
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] };
    }
  }
  return { batchItemFailures: [] };
}

async function processRecord(record: DynamoDBRecord): Promise<void> {
  const before = image(record.dynamodb?.OldImage);
  const after = image(record.dynamodb?.NewImage);
  const events = mapChange(before, after);
  if (events.length === 0) return;
  const workspaceId = workspaceOf((after ?? before)?.pk);
  if (!workspaceId) return;
  const ctx = makeCtx(workspaceId, record.eventID ?? 'stream');
  const changedAt = Date.parse(String((after ?? before)?.updated_at ?? ''));
  const time = Number.isFinite(changedAt) ? changedAt : (record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000;
  const messages = await recordEvents(ctx, { changeId: record.eventID!, time, events });
  for (const { message } of messages) await scheduleDeliveries(ctx, message);
  // Business metrics from the events this call wrote (a redelivered change wrote none): docs/operations.md.
  for (const { message, created } of messages) if (created) countEvent(message.payload);
  publishMetrics();
}
