import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { queryItems } from '../../db/query';
import { batchGet } from '../../db/batch-get';
import { RuleViolation, type DomainError } from '../../errors';
import { latestVersionOf, planKey, planNotFound, plansPartition, planVersionKey, planVersionNotFound, toPlan, toPlanVersion, type Plan, type PlanItem, type PlanVersionItem } from './plan';

/** A live plan of the workspace (strongly consistent), or 404. */
export async function findPlanItem(ctx: Ctx, id: string): Promise<PlanItem> {
  const item = await getItem<PlanItem>(planKey(ctx, id), true);
  if (!item || item.deleted_at) throw planNotFound(id);
  return item;
}

/** A version of the workspace's plans, or `missing` (404 by default). Versions are immutable: an eventual read would do, but a plan just made is read next. */
export async function findPlanVersion(ctx: Ctx, id: string, missing: (id: string) => DomainError = planVersionNotFound): Promise<PlanVersionItem> {
  const item = await getItem<PlanVersionItem>(planVersionKey(ctx, id), true);
  if (!item) throw missing(id);
  return item;
}

export async function readPlan(ctx: Ctx, id: string): Promise<Plan> {
  const plan = await findPlanItem(ctx, id);
  return toPlan(plan, await findPlanVersion(ctx, latestVersionOf(plan).id));
}

export const readPlanVersion = async (ctx: Ctx, id: string) => toPlanVersion(await findPlanVersion(ctx, id));

/** Every live plan, oldest first, with its latest version (one Query, one BatchGetItem); the total is exact. */
export async function listPlans(ctx: Ctx, query: { take: number; skip: number }) {
  const { items } = await queryItems<PlanItem>({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': plansPartition(ctx) }, ConsistentRead: true });
  const live = items.filter((p) => !p.deleted_at);
  const page = live.slice(query.skip, query.skip + query.take);
  const versions = new Map(((await batchGet(page.map((p) => planVersionKey(ctx, latestVersionOf(p).id)), true)) as unknown as PlanVersionItem[]).map((v) => [v.id, v]));
  const data = page.map((p) => toPlan(p, versions.get(latestVersionOf(p).id)!));
  return { meta: { total: live.length, taken: data.length, skipped: query.skip }, data };
}

/**
 * The version a new subscription takes: `plan_version_id` as given (of `plan_id` too, when both are), else the latest
 * of `plan_id`. A deleted plan sells no more (422 `plan_not_found`, as for an unknown one).
 */
export async function versionToSubscribe(ctx: Ctx, planId: string | undefined, versionId: string | undefined): Promise<PlanVersionItem> {
  const missingPlan = (id: string) => new RuleViolation('plan_not_found', `No plan with id '${id}' (or it is deleted).`);
  const missingVersion = (id: string) => new RuleViolation('plan_version_not_found', `No plan version with id '${id}'.`);
  const version = versionId ? await findPlanVersion(ctx, versionId, missingVersion) : undefined;
  const id = planId ?? version!.plan_id;
  if (version && version.plan_id !== id) throw new RuleViolation('plan_version_not_found', `Plan version '${version.id}' is not a version of plan '${id}'.`);
  const plan = await findPlanItem(ctx, id).catch(() => { throw missingPlan(id); });
  return version ?? findPlanVersion(ctx, latestVersionOf(plan).id);
}
