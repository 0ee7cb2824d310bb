import type { DynamoDBRecord } from 'aws-lambda';
import { eachLimited, pushTo } from '../../concurrency';
import { checkAlerts } from '../alerts/alert-check';
import { billThresholdCrossings } from '../subscriptions/threshold-billing';
import { workspaceCtx } from '../test-clocks/workspace-clock';
import { workspaceOf } from '../../db/keys';
import { image } from '../events/stream-record';
import { applyUsageChanges, type UsageChange } from './apply-usage';
import { listAggregatorItems } from './aggregator-read';
import { consumeCreditsForUsage } from './credit-consumption';
import { USAGE_EVENT, type UsageEventItem } from './usage-event';

/** Workspaces of one batch applied at once. */
const PARALLEL_WORKSPACES = 4;

/** A usage event as stored by ingest.ts; anything else on that key is left alone. */
const asEvent = (item: Record<string, unknown> | undefined): UsageEventItem | undefined =>
  item?._type === USAGE_EVENT && typeof item.timestamp === 'string' && typeof item.customer_id === 'string' && typeof item.event_type === 'string' &&
  typeof item.id === 'string' && item.properties !== null && typeof item.properties === 'object'
    ? (item as unknown as UsageEventItem)
    : undefined;

/** DynamoDB's TTL removing a raw event after its retention: its usage stays counted. */
const expiredByTtl = (record: DynamoDBRecord) => record.userIdentity?.type === 'Service' && record.userIdentity?.principalId === 'dynamodb.amazonaws.com';

/** The usage changes of a stream batch, by workspace. */
export function usageChanges(records: readonly DynamoDBRecord[]): Map<string, UsageChange[]> {
  const byWorkspace = new Map<string, UsageChange[]>();
  for (const record of records) {
    if (expiredByTtl(record)) continue;
    const before = asEvent(image(record.dynamodb?.OldImage));
    const after = asEvent(image(record.dynamodb?.NewImage));
    const workspace = workspaceOf((after ?? before)?.pk);
    if ((!before && !after) || !workspace || !record.eventID) continue;
    pushTo(byWorkspace, workspace, { changeId: record.eventID, before, after });
  }
  return byWorkspace;
}

/**
 * Applies a stream batch's usage changes (apply-usage.ts), then the credits they consume (credit-consumption.ts):
 * the workspace's aggregators read once per batch. Workspaces are worked concurrently: none waits for another's burst.
 */
export async function applyUsageRecords(records: readonly DynamoDBRecord[]): Promise<void> {
  await eachLimited([...usageChanges(records)], PARALLEL_WORKSPACES, async ([workspace, changes]) => {
    const ctx = await workspaceCtx(workspace, 'stream-usage'); // on its test clock, if it has one
    const aggregators = await listAggregatorItems(ctx);
    await applyUsageChanges(ctx, aggregators, changes);
    // Idempotent per event id too (a marker in each balance's transaction), so a retried batch consumes nothing twice.
    await consumeCreditsForUsage(ctx, aggregators, changes);
    // Then what the new aggregates cross: billing thresholds and alerts (docs/usage-billing.md).
    const customers = new Set(changes.map((c) => (c.after ?? c.before)!.customer_id));
    await billThresholdCrossings(ctx, customers);
    await checkAlerts(ctx, customers);
  });
}
