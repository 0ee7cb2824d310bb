import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { eachLimited } from '../../concurrency';
import { makeCtx } from '../../context';
import { db, tableName } from '../../db/client';
import { workspaceOf } from '../../db/keys';
import { applyAnalyticsChange } from './apply';
import { dayOf } from './facts';
import { ANALYTICS_SOURCES } from './plan';

const PARALLEL_ITEMS = 8;

/**
 * Counts the documents and subscriptions written before the analytics existed (npm run migrate:analytics): each
 * item counted whole, as it stands, unless the stream counted it already (its first change since counts it whole
 * too: items.ts, countedKey), so the backfill and the live stream can run at the same time, and a second run counts
 * nothing twice. A subscription's MRR is placed on its start day, as new business: the items keep no history of
 * earlier changes, pauses or churn (docs/analytics.md, "Existing data"). One Scan of the table, filtered by type.
 */
export async function backfillAnalytics(options: { workspace?: string; log?: (line: string) => void } = {}): Promise<{ counted: number }> {
  let counted = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({
      TableName: tableName(), ExclusiveStartKey: start,
      FilterExpression: '#type IN (:invoice, :subscription)' + (options.workspace ? ' AND begins_with(pk, :ws)' : ''),
      ExpressionAttributeNames: { '#type': '_type' },
      ExpressionAttributeValues: { ':invoice': ANALYTICS_SOURCES[0], ':subscription': ANALYTICS_SOURCES[1], ...(options.workspace && { ':ws': `WS#${options.workspace}#` }) },
    }));
    await eachLimited(page.Items ?? [], PARALLEL_ITEMS, async (item) => {
      const workspace = workspaceOf(item.pk);
      if (!workspace) return;
      const day = dayOf(String(item.starts_at ?? item.emitted_at ?? item.created_at));
      await applyAnalyticsChange(makeCtx(workspace, 'migrate-analytics'), { changeId: `backfill-${String(item.pk)}`, type: String(item._type), after: item, day, backfill: true });
      counted += 1;
    });
    start = page.LastEvaluatedKey;
    options.log?.(`looked at ${counted} documents and subscriptions${start ? ', scanning on' : ''}`);
  } while (start);
  return { counted };
}
