import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../../context';
import { db, tableName } from '../../../db/client';
import { eachLimited } from '../../../concurrency';
import { pendingCheckList } from '../../invoices/pending-check';
import { connectedStripe } from '../../payment-providers/connect';
import { checkPendingCharge } from './intents';

/** One sync's share: it answers within a route's time, and says when more are due. */
const SYNC_LIMIT = 100;
const IN_FLIGHT = 4;

/** The invoices whose pending charge is due a check (pending for more than an hour), from the workspace's list of them. */
async function duePendingChecks(ctx: Ctx): Promise<{ ids: string[]; more: boolean }> {
  const upTo = `${ctx.clock.now().toISOString()}#\uffff`;
  const ids: string[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :upTo',
        ExpressionAttributeValues: { ':pk': pendingCheckList(ctx), ':upTo': upTo }, ExclusiveStartKey: cursor,
      }),
    );
    for (const entry of page.Items ?? []) {
      if (ids.length === SYNC_LIMIT) return { ids, more: true };
      ids.push(String(entry.gsi1sk).split('#')[1]!);
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return { ids, more: false };
}

/**
 * `POST /v1/payment-providers/stripe/sync`: every charge pending for more than an hour is settled from what Stripe
 * says of its PaymentIntent, through the webhook's own path (settlePendingCharge), so a lost webhook never leaves an
 * invoice wrong. The scheduled check (kind `pending_charge_check`) does the same for one invoice at a time.
 */
export async function syncStripe(ctx: Ctx): Promise<{ checked: number; settled: number; still_pending: number; more: boolean }> {
  const connected = await connectedStripe(ctx);
  const { ids, more } = await duePendingChecks(ctx);
  const outcomes: string[] = [];
  await eachLimited(ids, IN_FLIGHT, async (id) => outcomes.push(await checkPendingCharge(ctx, id, connected)));
  return {
    checked: ids.length, settled: outcomes.filter((o) => o === 'settled').length, still_pending: outcomes.filter((o) => o === 'still_pending').length, more,
  };
}
