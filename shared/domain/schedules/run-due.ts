import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx, type Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import type { Key } from '../../db/keys';
import { collectInvoice } from '../collection/collect';
import { COLLECTION } from '../collection/dunning';
import { CREDIT_LOT, expireCreditLot } from '../credits/expire';
import { workspaceOf } from '../events/map-change';
import { endGracePeriod } from '../invoices/grace-period';
import { GRACE_PERIOD } from '../invoices/invoice';
import { billSubscription } from '../subscriptions/billing';
import { SUBSCRIPTION_BILLING } from '../subscriptions/subscription';
import { autoLoadWallet } from '../wallets/operations';
import { AUTO_LOAD } from '../wallets/schedule';

/** Time-driven work by kind (the middle part of `gsi4sk` = `<due at>#<kind>#<id>`). Each is safe to run twice. */
export const DUE_WORK: Record<string, (ctx: Ctx, key: Key, id: string) => Promise<unknown>> = {
  [AUTO_LOAD]: (ctx, _key, id) => autoLoadWallet(ctx, id),
  [COLLECTION]: (ctx, _key, id) => collectInvoice(ctx, id),
  [CREDIT_LOT]: (ctx, key) => expireCreditLot(ctx, key),
  [GRACE_PERIOD]: (ctx, _key, id) => endGracePeriod(ctx, id),
  [SUBSCRIPTION_BILLING]: (ctx, _key, id) => billSubscription(ctx, id),
};

export interface DueRun {
  due: number;
  done: number;
  failed: number;
}

/**
 * The scheduled handler's work: everything in the sparse scheduling index (gsi4) due at `now`, across
 * workspaces. Only items awaiting time-driven work are in that index, so this scan reads pending work, not the
 * table. One item's failure is logged and does not stop the others; it stays due and is retried next run.
 * `only` limits a run to some workspaces (tests sharing one table move their own clocks).
 */
export async function runDueWork(now: Date, only?: { workspaces: ReadonlySet<string> }): Promise<DueRun> {
  const run: DueRun = { due: 0, done: 0, failed: 0 };
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName(),
        IndexName: 'gsi4',
        FilterExpression: 'gsi4sk <= :now',
        ExpressionAttributeValues: { ':now': `${now.toISOString()}#~` },
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of page.Items ?? []) {
      const [, kind, id] = String(item.gsi4sk).split('#');
      const work = kind ? DUE_WORK[kind] : undefined;
      const workspace = workspaceOf(item.pk);
      if (!work || !workspace || !id || (only && !only.workspaces.has(workspace))) continue;
      run.due += 1;
      try {
        await work(makeCtx(workspace, `schedule:${kind}:${id}`), { pk: String(item.pk), sk: String(item.sk) }, id);
        run.done += 1;
      } catch (error) {
        run.failed += 1;
        console.error(JSON.stringify({ level: 'error', scheduled: kind, id, workspace, error: String(error) }));
      }
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return run;
}
