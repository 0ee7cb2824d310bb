import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { makeCtx } from '../../context';
import { countEvent } from '../../observability/business-metrics';
import { publishMetrics } from '../../observability/metrics';
import { scheduleEmails } from '../../email/schedule';
import { scheduleDeliveries } from '../webhooks/schedule-deliveries';
import { workspaceOf } from '../../db/keys';
import { deriveEntitlements } from '../entitlements/stream';
import { changeTime, mapChange } from './map-change';
import { recordEvents } from './record-events';

type Image = Record<string, unknown>;
/** A stream record's old or new image as a plain item (absent: created / removed). */
export const image = (raw: unknown): Image | undefined => (raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined);

/**
 * One stream record → its events, webhook messages, deliveries and emails. Idempotent (ids derive from the record's
 * eventID), so a retried batch, or a quarantined record replayed later, writes each item once.
 */
export async function processRecord(record: DynamoDBRecord): Promise<void> {
  const before = image(record.dynamodb?.OldImage);
  const after = image(record.dynamodb?.NewImage);
  await deriveEntitlements(before, after, record.eventID ?? 'stream');
  const events = mapChange(before, after);
  if (events.length === 0) return;
  const workspaceId = workspaceOf((after ?? before)?.pk);
  if (!workspaceId) return;
  const ctx = makeCtx(workspaceId, record.eventID ?? 'stream');
  const time = changeTime(before, after) ?? (record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000;
  const messages = await recordEvents(ctx, { changeId: record.eventID!, time, events });
  for (const { message } of messages) {
    await scheduleDeliveries(ctx, message);
    await scheduleEmails(ctx, message);
  }
  // Business metrics from the events this call wrote (a redelivered change wrote none): docs/operations.md.
  for (const { message, created } of messages) if (created) countEvent(message.payload);
  publishMetrics();
}
