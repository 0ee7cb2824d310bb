import type { DynamoDBRecord } from 'aws-lambda';
import { makeCtx } from '../../context';
import { workspaceOf } from '../../db/keys';
import { changeTime } from '../events/map-change';
import { image } from '../events/stream-record';
import { applyAnalyticsChange } from './apply';
import { ANALYTICS_SOURCES } from './plan';

const SOURCES: ReadonlySet<string> = new Set(ANALYTICS_SOURCES);

/**
 * One stream record → the revenue analytics it moves (invoices, credit notes and their transactions; subscriptions),
 * exactly once per record (apply.ts). Runs in the message consumer, on the records it already receives: the stream
 * serves two readers per shard at full speed, both taken (docs/analytics.md, "Where it runs").
 */
export async function applyAnalyticsRecord(record: DynamoDBRecord): Promise<void> {
  const before = image(record.dynamodb?.OldImage);
  const after = image(record.dynamodb?.NewImage);
  const type = String((after ?? before)?._type ?? '');
  const workspaceId = workspaceOf((after ?? before)?.pk);
  if (!SOURCES.has(type) || !workspaceId || !record.eventID) return;
  const time = changeTime(before, after) ?? (record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000;
  const ctx = makeCtx(workspaceId, record.eventID);
  await applyAnalyticsChange(ctx, { changeId: record.eventID, type, before, after, day: new Date(time).toISOString().slice(0, 10) });
}
