import { pushTo } from '../../concurrency';
import type { Ctx } from '../../context';
import type { Key } from '../../db/keys';
import { collectInvoice } from '../collection/collect';
import { COLLECTION } from '../collection/dunning';
import { CREDIT_LOT, expireCreditLot } from '../credits/expire';
import { DAILY_DATA_EXPORT, runDailyDataExport } from '../exports/daily';
import { EXPORT_WORK } from '../exports/export';
import { runExport } from '../exports/run';
import { endGracePeriod } from '../invoices/grace-period';
import { GRACE_PERIOD } from '../invoices/invoice';
import { PENDING_CHECK } from '../invoices/pending-check';
import { CARD_EXPIRY, noticeCardExpiry } from '../payment-methods/expiry';
import { checkPendingCharge } from '../payments/stripe/intents';
import { billSubscription } from '../subscriptions/billing';
import { billSubscriptionsTogether } from '../subscriptions/billing-batch';
import { SUBSCRIPTION_BILLING } from '../subscriptions/subscription';
import { PLAN_MIGRATION_WORK } from '../plans/migration';
import { processMigration } from '../plans/migrate';
import { TEST_CLOCK_ADVANCE } from '../test-clocks/advance';
import { runTestClockAdvance } from '../test-clocks/advance-run';
import { workspaceCtx } from '../test-clocks/workspace-clock';
import { autoLoadWallet } from '../wallets/operations';
import { AUTO_LOAD } from '../wallets/schedule';
import type { DueFilter, DueItem } from './due-item';
import { LocalDueQueue, type LocalQueueOptions } from './due-queue';
import { enqueueDueWork } from './enqueue-due';

/** Time-driven work by kind (the middle part of `gsi4sk` = `<due at>#<kind>#<id>`). Each is safe to run twice. */
export const DUE_WORK: Record<string, (ctx: Ctx, key: Key, id: string) => Promise<unknown>> = {
  [AUTO_LOAD]: (ctx, _key, id) => autoLoadWallet(ctx, id),
  [CARD_EXPIRY]: (ctx, _key, id) => noticeCardExpiry(ctx, id),
  [COLLECTION]: (ctx, _key, id) => collectInvoice(ctx, id),
  [CREDIT_LOT]: (ctx, key) => expireCreditLot(ctx, key),
  [DAILY_DATA_EXPORT]: (ctx, key) => runDailyDataExport(ctx, key),
  [EXPORT_WORK]: (ctx, _key, id) => runExport(ctx, id),
  [GRACE_PERIOD]: (ctx, _key, id) => endGracePeriod(ctx, id),
  [PENDING_CHECK]: (ctx, _key, id) => checkPendingCharge(ctx, id),
  [SUBSCRIPTION_BILLING]: (ctx, _key, id) => billSubscription(ctx, id),
  [PLAN_MIGRATION_WORK]: (ctx, _key, id) => processMigration(ctx, id),
};

/**
 * What a worker does with one queued item (the SQS worker function and the local queue alike), on its workspace's
 * clock (a test clock's time, docs/test-clocks.md). A kind this code
 * does not know (a message from a newer or older version) is logged and dropped, not retried.
 */
export async function runDueItem(item: DueItem): Promise<void> {
  // A test clock's advance walks the workspace's due work with this module's own batch runner (docs/test-clocks.md).
  if (item.kind === TEST_CLOCK_ADVANCE) return runTestClockAdvance(item.workspace, item.id, runDueBatch);
  const work = DUE_WORK[item.kind];
  if (!work) {
    console.warn(JSON.stringify({ level: 'warn', scheduled: item.kind, id: item.id, workspace: item.workspace, message: 'unknown kind of due work: dropped' }));
    return;
  }
  await work(await workspaceCtx(item.workspace, `schedule:${item.kind}:${item.id}`), { pk: item.pk, sk: item.sk }, item.id);
}

/**
 * What a worker does with a batch of items (the worker function's SQS batch, a local worker's): the renewals of each
 * workspace first, together where they can be (billSubscriptionsTogether: one transaction and one run of invoice
 * numbers per entity and up to 24 renewals), then everything else one by one. Returns the items that failed.
 */
export async function runDueBatch(items: readonly DueItem[]): Promise<{ item: DueItem; error: unknown }[]> {
  const alone: DueItem[] = items.filter((i) => i.kind !== SUBSCRIPTION_BILLING);
  const renewals = new Map<string, DueItem[]>();
  for (const item of items) if (item.kind === SUBSCRIPTION_BILLING) pushTo(renewals, item.workspace, item);
  for (const [workspace, list] of renewals) {
    if (list.length < 2) {
      alone.push(...list);
      continue;
    }
    try {
      const together = await billSubscriptionsTogether(await workspaceCtx(workspace, `schedule:${SUBSCRIPTION_BILLING}:batch`), list.map((i) => i.id));
      const left = new Set(together.alone);
      alone.push(...list.filter((i) => left.has(i.id)));
    } catch {
      alone.push(...list); // its reads failed: each is billed alone
    }
  }
  const failed: { item: DueItem; error: unknown }[] = [];
  for (const item of alone) {
    try {
      await runDueItem(item);
    } catch (error) {
      failed.push({ item, error });
    }
  }
  return failed;
}

export interface DueRun {
  due: number;
  done: number;
  failed: number;
}

/** In-process workers of `runDueWork` (the local server's and the tests'); `DUE_WORKERS` overrides it. */
export const localWorkers = (): number => Math.max(1, Number(process.env.DUE_WORKERS) || 4);

/** Items a local worker takes at once, as SQS hands the worker function up to 10. */
export const LOCAL_BATCH = 10;

/**
 * What came due by `now`, run to the end in this process: the scheduled function's enqueue into the local queue,
 * drained meanwhile by in-process workers, as the worker function drains the SQS queue on AWS. Without `only`, what
 * came due since the scheduled run's cursor, which it moves (`npm start`); with `only.workspaces`, everything due in
 * them (tests sharing one table move their own clocks). By default an item is received once: one that fails is logged
 * and counted and stays in the index, where a run limited to workspaces finds it again; a cursor has moved past it.
 */
export async function runDueWork(now: Date, only?: DueFilter, options: Partial<LocalQueueOptions> = {}): Promise<DueRun> {
  const queue = new LocalDueQueue({ workers: options.workers ?? localWorkers(), maxReceives: options.maxReceives ?? 1, batchSize: options.batchSize ?? LOCAL_BATCH });
  // The workers start on the first page while the reading goes on, as the worker function does on AWS.
  const sent = queue.opened();
  const draining = queue.drainBatches(runDueBatch, (item, error) =>
    console.error(JSON.stringify({ level: 'error', scheduled: item.kind, id: item.id, workspace: item.workspace, error: String(error) })),
  );
  const [{ due }, drained] = await Promise.all([enqueueDueWork(now, queue, only).finally(sent), draining]);
  return { due, done: drained.done, failed: drained.failed };
}
