import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { counterUpdate } from '../../db/pagination';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { featureItems } from '../entitlements/features';
import { expectedValue, valueFits } from '../entitlements/feature';
import { checkProducts, type SubscriptionProductInput } from '../subscriptions/prepare';
import {
  MAX_PLANS, MAX_PLAN_VERSIONS, PLANS, PLAN_ITEM_TYPE, PLAN_VERSION_ITEM_TYPE, planKey, planVersionKey, toPlan,
  type FeatureGrant, type Plan, type PlanItem, type PlanVersionItem,
} from './plan';
import { findPlanItem, readPlan } from './read';

export interface PlanVersionInput {
  products: SubscriptionProductInput[];
  features?: FeatureGrant[];
}

export interface PlanCreateInput extends PlanVersionInput {
  name: string;
  description?: string | null;
  currency: string;
}

const versioned = (version: PlanVersionItem) => ({
  Put: { TableName: tableName(), Item: version, ConditionExpression: 'attribute_not_exists(pk)' },
});

/**
 * A version's content checked as a subscription would check it (products usable, configurations active, in the plan's
 * currency, one billing interval: prepare.ts's checkProducts, so a version always subscribes), and each grant naming a
 * live feature once, with a value of its type.
 */
async function checkedContent(ctx: Ctx, currency: string, input: PlanVersionInput): Promise<Pick<PlanVersionItem, 'products' | 'features'>> {
  await checkProducts(ctx, input.products, currency);
  const grants = input.features ?? [];
  const features = grants.length > 0 ? await featureItems(ctx) : new Map();
  grants.forEach((grant, index) => {
    const feature = features.get(grant.feature_id);
    if (!feature) throw new RuleViolation('feature_not_found', `features.${index}: no feature with id '${grant.feature_id}'.`);
    if (grants.findIndex((g) => g.feature_id === grant.feature_id) !== index) {
      throw new InvalidRequest(`features.${index}: feature '${grant.feature_id}' is granted twice.`, [{ path: `features.${index}.feature_id`, message: 'is granted twice' }]);
    }
    if (!valueFits(feature.type, grant.value)) {
      const expected = expectedValue(feature.type);
      throw new InvalidRequest(`features.${index}: a ${feature.type} feature takes ${expected}.`, [{ path: `features.${index}.value`, message: `must be ${expected}` }]);
    }
  });
  return {
    products: input.products.map((p) => ({ product_id: p.product_id, price_configuration_id: p.price_configuration_id, quantity: p.quantity })),
    features: grants.map((g) => ({ feature_id: g.feature_id, value: g.value })),
  };
}

const newVersion = (ctx: Ctx, plan: Pick<PlanItem, 'id' | 'currency'>, version: number, content: Pick<PlanVersionItem, 'products' | 'features'>, now: string): PlanVersionItem => {
  const id = newId('plv');
  return { ...planVersionKey(ctx, id), _type: PLAN_VERSION_ITEM_TYPE, _version: 0, id, plan_id: plan.id, version, currency: plan.currency, ...content, created_at: now };
};

/** The plan and its version 1 in one transaction, with the workspace's count of live plans (at most MAX_PLANS). */
export async function createPlan(ctx: Ctx, input: PlanCreateInput): Promise<Plan> {
  const content = await checkedContent(ctx, input.currency, input);
  const id = newId('plan');
  const now = ctx.clock.now().toISOString();
  const first = newVersion(ctx, { id, currency: input.currency }, 1, content, now);
  const plan: PlanItem = {
    ...planKey(ctx, id), _type: PLAN_ITEM_TYPE, _version: 0, id, name: input.name, description: input.description ?? null, currency: input.currency,
    versions: [{ id: first.id, version: 1, created_at: now }], created_at: now, updated_at: now, deleted_at: null,
  };
  await retryOnRace(async () => {
    try {
      await transactWrite([{ Put: { TableName: tableName(), Item: plan, ConditionExpression: 'attribute_not_exists(pk)' } }, versioned(first), counterUpdate(ctx, PLANS, 1, MAX_PLANS)]);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index === 2) throw new RuleViolation('plan_limit_reached', `A workspace has at most ${MAX_PLANS} plans.`);
      throw error;
    }
  });
  return toPlan(plan, first);
}

/** Conditioned on the version read (a lost race reads again). */
const putPlan = (next: PlanItem, read: PlanItem) => ({
  Put: { TableName: tableName(), Item: { ...next, _version: read._version + 1 }, ConditionExpression: '#v = :v', ExpressionAttributeNames: { '#v': '_version' }, ExpressionAttributeValues: { ':v': read._version } },
});

/**
 * `POST /v1/plans/{id}/versions`: a new immutable version, the plan's latest from now on (what `plan_id` subscribes
 * to). No existing subscription changes: a migration moves them (migrate.ts).
 */
export async function createPlanVersion(ctx: Ctx, planId: string, input: PlanVersionInput): Promise<Plan> {
  const plan = await findPlanItem(ctx, planId);
  const content = await checkedContent(ctx, plan.currency, input);
  return retryOnRace(async () => {
    const current = await findPlanItem(ctx, planId);
    const number = current.versions.length + 1;
    if (number > MAX_PLAN_VERSIONS) throw new RuleViolation('plan_version_limit_reached', `A plan has at most ${MAX_PLAN_VERSIONS} versions: create a new plan.`);
    const now = ctx.clock.now().toISOString();
    const version = newVersion(ctx, current, number, content, now);
    const next: PlanItem = { ...current, versions: [...current.versions, { id: version.id, version: number, created_at: now }], updated_at: now };
    await transactWrite([putPlan(next, current), versioned(version)]);
    return toPlan(next, version);
  });
}

/** Name and description only: what a plan sells is in its versions. */
export async function updatePlan(ctx: Ctx, id: string, input: { name?: string; description?: string | null }): Promise<Plan> {
  await retryOnRace(async () => {
    const current = await findPlanItem(ctx, id);
    const next = { ...current, name: input.name ?? current.name, description: input.description !== undefined ? input.description : current.description, updated_at: ctx.clock.now().toISOString() };
    await transactWrite([putPlan(next, current)]);
  });
  return readPlan(ctx, id);
}

/** Soft delete: no new subscription takes it; its subscriptions keep their version, and a migration can still move them. */
export async function deletePlan(ctx: Ctx, id: string): Promise<Plan> {
  const plan = await readPlan(ctx, id);
  await retryOnRace(async () => {
    const current = await findPlanItem(ctx, id);
    const now = ctx.clock.now().toISOString();
    await transactWrite([putPlan({ ...current, deleted_at: now, updated_at: now }, current), counterUpdate(ctx, PLANS, -1)]);
  });
  return plan;
}
