import type { Ctx } from '../../context';
import { batchGet } from '../../db/batch-get';
import { getItem } from '../../db/items';
import { customerItemKey, subscriptionSummaries } from '../customers/customer';
import { aggregatorKey, type AggregatorItem } from '../metering/aggregator';
import { planVersionKey, type PlanVersionItem } from '../plans/plan';
import { subscriptionKey, type SubscriptionItem } from '../subscriptions/subscription';
import type { Entitlement } from './entitlement';
import type { FeatureItem, FeatureValue } from './feature';
import { featureItems } from './features';

/** Subscriptions whose plan version grants its features: running ones (a pending, paused or cancelled one grants nothing). */
export const GRANTING_STATUSES = new Set(['active', 'trialing']);

export interface Grant {
  subscription: Pick<SubscriptionItem, 'id' | 'starts_at' | 'trial_ends_at' | 'billing_interval' | 'timezone'>;
  feature_id: string;
  value: FeatureValue;
}

/** The stronger of two grants: `true` over `false`, the higher number (two plans granting seats: the larger limit). */
const stronger = (a: FeatureValue, b: FeatureValue) => (typeof a === 'boolean' ? a || (b as boolean) : Math.max(a, b as number));

/**
 * Pure: the entitlements of a customer from the grants of its running subscriptions' plan versions and its overrides
 * (an override replaces whatever the plans grant, even with `false` or 0), each feature once, by feature id. Grants of
 * a feature that no longer exists, or whose value does not fit its type, mean nothing.
 */
export function combine(grants: Grant[], overrides: Record<string, FeatureValue>, features: Map<string, FeatureItem>, aggregators: Map<string, AggregatorItem>): Entitlement[] {
  const byFeature = new Map<string, { value: FeatureValue; subscription: Grant['subscription'] | null; source: 'plan' | 'override' }>();
  for (const grant of grants) {
    const seen = byFeature.get(grant.feature_id);
    if (!seen || stronger(seen.value, grant.value) !== seen.value) byFeature.set(grant.feature_id, { value: seen ? stronger(seen.value, grant.value) : grant.value, subscription: grant.subscription, source: 'plan' });
  }
  for (const [featureId, value] of Object.entries(overrides)) byFeature.set(featureId, { value, subscription: byFeature.get(featureId)?.subscription ?? null, source: 'override' });
  return [...byFeature]
    .flatMap(([featureId, e]) => {
      const feature = features.get(featureId);
      if (!feature || (feature.type === 'boolean') !== (typeof e.value === 'boolean')) return [];
      const aggregator = feature.aggregator_id ? aggregators.get(feature.aggregator_id) : undefined;
      const calendar = e.subscription && { starts_at: e.subscription.starts_at, trial_ends_at: e.subscription.trial_ends_at ?? null, billing_interval: e.subscription.billing_interval, timezone: e.subscription.timezone };
      const meter = aggregator && calendar ? { aggregator, calendar } : null;
      return [{
        feature_id: feature.id, code: feature.code, name: feature.name, type: feature.type, value: e.value, source: e.source,
        subscription_id: e.source === 'plan' ? e.subscription!.id : null, ...(feature.type === 'metered' && { meter }),
      }];
    })
    .sort((a, b) => (a.code < b.code ? -1 : 1));
}

/**
 * The reads a recomputation needs, all strongly consistent: the customer (its subscriptions' summaries), its running
 * subscriptions, their plan versions, the workspace's features, and the aggregators of metered ones.
 */
export async function computeEntitlements(ctx: Ctx, customerId: string, overrides: Record<string, FeatureValue>): Promise<Entitlement[]> {
  const customer = await getItem<object>(customerItemKey(ctx, customerId), true);
  const running = customer ? subscriptionSummaries(customer).filter((s) => GRANTING_STATUSES.has(s.status)) : [];
  const subscriptions = ((await batchGet(running.map((s) => subscriptionKey(ctx, s.id)), true)) as unknown as SubscriptionItem[]).filter(
    (s) => GRANTING_STATUSES.has(s.status) && s.plan_version_id,
  );
  const versions = new Map(((await batchGet([...new Set(subscriptions.map((s) => s.plan_version_id!))].map((id) => planVersionKey(ctx, id)), true)) as unknown as PlanVersionItem[]).map((v) => [v.id, v]));
  const grants = subscriptions.flatMap((s) => (versions.get(s.plan_version_id!)?.features ?? []).map((f) => ({ subscription: s, feature_id: f.feature_id, value: f.value })));
  if (grants.length === 0 && Object.keys(overrides).length === 0) return [];
  const features = await featureItems(ctx);
  const meterIds = [...new Set([...features.values()].filter((f) => f.aggregator_id).map((f) => f.aggregator_id!))];
  const aggregators = new Map(((await batchGet(meterIds.map((id) => aggregatorKey(ctx, id)), true)) as unknown as AggregatorItem[]).map((a) => [a.id, a]));
  return combine(grants, overrides, features, aggregators);
}
