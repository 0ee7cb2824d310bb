import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { collectionKey, collectionPartition, entityKey } from '../../db/keys';
import { NotFound } from '../../errors';
import type { SubscriptionProductInput } from '../subscriptions/prepare';
import type { FeatureValue } from '../entitlements/feature';

/**
 * A plan (Hyperline's name): a named bundle of products at price configurations, sold as one. Its content lives in
 * immutable versions; the plan item keeps its name, its currency and the list of its versions. All plans of a
 * workspace sit in one partition (`WS#<ws>#PLANS`), read whole by the list (a workspace has at most MAX_PLANS).
 */
export const PLANS = 'PLANS';
export const PLAN_ITEM_TYPE = 'plan';
export const MAX_PLANS = 1_000;
/** A plan keeps the summary of each version on its own item: this many at most (a version a week for two years). */
export const MAX_PLAN_VERSIONS = 100;

export const PLAN_VERSION = 'PLV';
export const PLAN_VERSION_ITEM_TYPE = 'plan_version';

/** One feature a plan version grants: `true`/`false` for a boolean feature, a number for a limit or a metered allowance. */
export interface FeatureGrant {
  feature_id: string;
  value: FeatureValue;
}

export interface PlanVersionSummary {
  id: string;
  version: number;
  created_at: string;
}

export interface PlanItem extends StoredItem {
  id: string;
  name: string;
  description: string | null;
  currency: string;
  versions: PlanVersionSummary[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** Never changed once written: a subscription and a migration name it and rely on its content staying. */
export interface PlanVersionItem extends StoredItem {
  id: string;
  plan_id: string;
  version: number;
  currency: string;
  products: SubscriptionProductInput[];
  features: FeatureGrant[];
  created_at: string;
}

export const planKey = (ctx: Ctx, id: string) => collectionKey(ctx, PLANS, id);
export const plansPartition = (ctx: Ctx) => collectionPartition(ctx, PLANS);
export const planVersionKey = (ctx: Ctx, id: string) => entityKey(ctx, PLAN_VERSION, id);
export const planNotFound = (id: string) => new NotFound('plan', id);
export const planVersionNotFound = (id: string) => new NotFound('plan_version', id);

export const latestVersionOf = (plan: PlanItem): PlanVersionSummary => plan.versions[plan.versions.length - 1]!;

export const toPlanVersion = (v: PlanVersionItem) => ({
  id: v.id,
  plan_id: v.plan_id,
  version: v.version,
  currency: v.currency,
  products: v.products.map((p) => ({ product_id: p.product_id, price_configuration_id: p.price_configuration_id, quantity: p.quantity })),
  features: v.features.map((f) => ({ feature_id: f.feature_id, value: f.value })),
  created_at: v.created_at,
});
export type PlanVersion = ReturnType<typeof toPlanVersion>;

/** The public plan: its latest version in full (what `plan_id` subscribes to), the others by summary. */
export const toPlan = (plan: PlanItem, latest: PlanVersionItem) => ({
  id: plan.id,
  name: plan.name,
  description: plan.description,
  currency: plan.currency,
  latest_version: toPlanVersion(latest),
  versions: plan.versions.map((v) => ({ id: v.id, version: v.version, created_at: v.created_at })),
  created_at: plan.created_at,
  updated_at: plan.updated_at,
});
export type Plan = ReturnType<typeof toPlan>;
