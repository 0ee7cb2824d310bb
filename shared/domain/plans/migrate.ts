import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { batchGet } from '../../db/batch-get';
import { dueIndexKeys } from '../../db/keys';
import { getItem } from '../../db/items';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { DomainError, InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { changeSubscription } from '../subscriptions/change';
import { planMembersPartition } from '../subscriptions/plan-members';
import { subscriptionKey, type SubscriptionItem } from '../subscriptions/subscription';
import { migrates } from './eligibility';
import {
  MAX_KEPT_FAILURES, MAX_NAMED_SUBSCRIPTIONS, PLAN_MIGRATION_ITEM_TYPE, PLAN_MIGRATION_WORK, planMigrationKey, planMigrationNotFound, toPlanMigration,
  type MigrationFailure, type MigrationInput, type PlanMigration, type PlanMigrationItem,
} from './migration';
import { findPlanItem, findPlanVersion } from './read';

/** Subscriptions one page of a migration moves (each a transaction of its own, one after the other). */
export const MIGRATION_PAGE = 25;
/** Pages one run of the due work takes before it hands the rest to the next run (a Lambda's time is bounded). */
export const PAGES_PER_RUN = 8;

/** 422 unless both versions are the plan's and the named subscriptions are few enough. */
export async function checkedMigration(ctx: Ctx, planId: string, input: MigrationInput) {
  const plan = await findPlanItem(ctx, planId);
  const versionOfPlan = async (id: string, member: string) => {
    const version = await findPlanVersion(ctx, id, () => new RuleViolation('plan_version_not_found', `${member}: no plan version with id '${id}'.`));
    if (version.plan_id !== plan.id) throw new RuleViolation('plan_version_not_found', `${member}: plan version '${id}' is not a version of plan '${plan.id}'.`);
    return version;
  };
  const to = await versionOfPlan(input.to_version_id, 'to_version_id');
  if (input.from_version_id) {
    await versionOfPlan(input.from_version_id, 'from_version_id');
    if (input.from_version_id === to.id) throw new InvalidRequest('from_version_id and to_version_id are the same version.', [{ path: 'body.from_version_id', message: 'is to_version_id' }]);
  }
  const ids = input.subscription_ids ? [...new Set(input.subscription_ids)] : null;
  if (ids && ids.length > MAX_NAMED_SUBSCRIPTIONS) throw new InvalidRequest(`subscription_ids: at most ${MAX_NAMED_SUBSCRIPTIONS}.`, [{ path: 'body.subscription_ids', message: `has more than ${MAX_NAMED_SUBSCRIPTIONS} items` }]);
  if (ids) {
    // Each named subscription must be the workspace's (another workspace's id answers like an unknown one).
    const found = new Set((await subscriptionsById(ctx, ids)).map((s) => s.id));
    const missing = ids.find((sid) => !found.has(sid));
    if (missing) throw new RuleViolation('subscription_not_found', `subscription_ids: no subscription with id '${missing}'.`);
  }
  return {
    plan, to,
    rule: {
      plan_id: plan.id, from_version_id: input.from_version_id ?? null, to_version_id: to.id, subscription_ids: ids,
      effective: input.effective ?? 'next_period', proration: input.proration ?? 'prorate',
    } as const,
  };
}

/**
 * `POST /v1/plans/{id}/migrations`: the migration is written with its first page due now; the scheduled work moves
 * its subscriptions page by page (processMigration), never in the request. Answers 202 with it, `pending`.
 */
export async function createMigration(ctx: Ctx, planId: string, input: MigrationInput): Promise<PlanMigration> {
  const { rule } = await checkedMigration(ctx, planId, input);
  const id = newId('plm');
  const now = ctx.clock.now().toISOString();
  const item: PlanMigrationItem = {
    ...planMigrationKey(ctx, id), _type: PLAN_MIGRATION_ITEM_TYPE, _version: 0, id, ...rule,
    status: 'pending', cursor: null, migrated: 0, skipped: 0, failed: 0, failures: [], created_at: now, updated_at: now, completed_at: null,
    ...dueIndexKeys(ctx, now, PLAN_MIGRATION_WORK, id),
  };
  await transactWrite([{ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }]);
  return toPlanMigration(item);
}

export async function readMigration(ctx: Ctx, id: string): Promise<PlanMigration> {
  const item = await getItem<PlanMigrationItem>(planMigrationKey(ctx, id), true);
  if (!item) throw planMigrationNotFound(id);
  return toPlanMigration(item);
}

/** One page of subscription ids: of the list given, or of the plan's members (gsi3, keys only), from the cursor. */
export async function memberPage(ctx: Ctx, m: Pick<PlanMigrationItem, 'plan_id' | 'subscription_ids' | 'cursor'>, size: number): Promise<{ ids: string[]; cursor: PlanMigrationItem['cursor'] }> {
  if (m.subscription_ids) {
    const start = typeof m.cursor === 'number' ? m.cursor : 0;
    const end = Math.min(start + size, m.subscription_ids.length);
    return { ids: m.subscription_ids.slice(start, end), cursor: end < m.subscription_ids.length ? end : null };
  }
  const page = await db.send(new QueryCommand({
    TableName: tableName(), IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :p', ExpressionAttributeValues: { ':p': planMembersPartition(ctx, m.plan_id) },
    Limit: size, ...(m.cursor && typeof m.cursor === 'object' && { ExclusiveStartKey: m.cursor }),
  }));
  const ids = (page.Items ?? []).map((key) => String(key.pk).split('#').pop()!);
  return { ids, cursor: (page.LastEvaluatedKey as Record<string, unknown> | undefined) ?? null };
}

type Outcome = { migrated: true } | { skipped: true } | { failure: MigrationFailure };

/**
 * One subscription through the subscription change of PATCH (change.ts: the same scheduled change at the next period,
 * or the same proration now), marked with the migration in the same conditioned write. Counted migrated when the
 * subscription carries this migration afterwards, whoever wrote it (this call, or an earlier attempt that crashed
 * before moving the cursor): a page worked twice counts the same.
 */
export async function migrateSubscription(ctx: Ctx, m: PlanMigrationItem, subscriptionId: string): Promise<Outcome> {
  const version = await findPlanVersion(ctx, m.to_version_id);
  try {
    await changeSubscription(
      ctx, subscriptionId,
      { products: version.products, effective: m.effective, proration_behavior: m.proration === 'prorate' ? 'create_invoice' : 'none' },
      { plan_version_id: version.id, migration_id: m.id, applies: (s) => migrates(m, s) },
    );
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) throw error;
    return { failure: { subscription_id: subscriptionId, code: error.code, message: error.message } };
  }
  const after = await getItem<SubscriptionItem>(subscriptionKey(ctx, subscriptionId), true);
  return after?.last_migration_id === m.id ? { migrated: true } : { skipped: true };
}

/**
 * The due work of a migration: up to PAGES_PER_RUN pages, each its subscriptions then the migration's cursor and
 * counts, written on the version read. A worker that crashes mid-page leaves the cursor where it was: the page is
 * worked again and its subscriptions already moved are counted, not moved again (migrateSubscription). Two workers on
 * one page: each subscription's conditioned write lets one move it, and one cursor write wins (the other reads again).
 * Pages left: it stays due now; done: it leaves the scheduling index, `completed`.
 */
export async function processMigration(ctx: Ctx, id: string): Promise<void> {
  for (let run = 0; run < PAGES_PER_RUN; run++) {
    const m = await getItem<PlanMigrationItem>(planMigrationKey(ctx, id), true);
    if (!m || m.status === 'completed') return;
    const page = await memberPage(ctx, m, MIGRATION_PAGE);
    const outcomes: Outcome[] = [];
    for (const subscriptionId of page.ids) outcomes.push(await migrateSubscription(ctx, m, subscriptionId));
    const failures = outcomes.flatMap((o) => ('failure' in o ? [o.failure] : []));
    const now = ctx.clock.now().toISOString();
    const done = page.cursor === null;
    const { gsi4pk: _p, gsi4sk: _s, ...rest } = m;
    const next: PlanMigrationItem = {
      ...rest, _version: m._version + 1, cursor: page.cursor, status: done ? 'completed' : 'running', updated_at: now, completed_at: done ? now : null,
      migrated: m.migrated + outcomes.filter((o) => 'migrated' in o).length, skipped: m.skipped + outcomes.filter((o) => 'skipped' in o).length,
      failed: m.failed + failures.length, failures: [...m.failures, ...failures].slice(0, MAX_KEPT_FAILURES),
      ...(!done && dueIndexKeys(ctx, now, PLAN_MIGRATION_WORK, id)),
    };
    try {
      await transactWrite([{ Put: { TableName: tableName(), Item: next, ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': '_version' }, ExpressionAttributeValues: { ':v': m._version } } }]);
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error; // another worker moved the cursor: read it again
    }
    if (done) return;
  }
}

/** Reads subscriptions by id (BatchGetItem, strongly consistent), in the order given. */
export const subscriptionsById = async (ctx: Ctx, ids: string[]): Promise<SubscriptionItem[]> =>
  (await batchGet(ids.map((sid) => subscriptionKey(ctx, sid)), true)) as unknown as SubscriptionItem[];
