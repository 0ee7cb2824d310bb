import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import type { AggregatorItem } from '../metering/aggregator';
import type { SubscriptionItem } from '../subscriptions/subscription';
import type { FeatureType, FeatureValue } from './feature';

export type PeriodCalendar = Pick<SubscriptionItem, 'starts_at' | 'trial_ends_at' | 'billing_interval' | 'timezone'>;

/**
 * A customer's entitlements, materialised in ONE item (`WS#<ws>#ENT#<customer>` / `ENT`) so that
 * `GET /v1/customers/{id}/entitlements` is one GetItem: the stream recomputes it when a subscription of the customer
 * changes its plan version or status (materialise.ts), and an override rewrites it at once. Its overrides live in it.
 */
export const ENTITLEMENTS = 'ENT';
export const ENTITLEMENTS_ITEM_TYPE = 'customer_entitlements';

export interface Entitlement {
  feature_id: string;
  code: string;
  name: string;
  type: FeatureType;
  value: FeatureValue;
  source: 'plan' | 'override';
  subscription_id: string | null;
  /**
   * metered only: the aggregator (its definition is immutable, so a snapshot reads usage as the live one would) and
   * the calendar of the granting subscription, from which a read finds the period running then (null: an override
   * alone, no period to count in).
   */
  meter?: { aggregator: AggregatorItem; calendar: PeriodCalendar } | null;
}

export interface EntitlementsItem extends StoredItem {
  customer_id: string;
  overrides: Record<string, FeatureValue>;
  entitlements: Entitlement[];
  updated_at: string;
}

export const entitlementsKey = (ctx: Ctx, customerId: string) => entityKey(ctx, ENTITLEMENTS, customerId);

/** The public entitlements without usage (the event's data; the route adds each metered one's usage). */
export const toEntitlements = (customerId: string, item: Pick<EntitlementsItem, 'entitlements' | 'updated_at'> | undefined) => ({
  customer_id: customerId,
  entitlements: (item?.entitlements ?? []).map((e) => ({
    feature_id: e.feature_id, code: e.code, name: e.name, type: e.type, value: e.value, source: e.source, subscription_id: e.subscription_id, usage: null as EntitlementUsage | null,
  })),
  updated_at: item?.updated_at ?? null,
});

export interface EntitlementUsage {
  aggregator_id: string;
  used: number;
  remaining: number;
  period_starts_at: string;
  period_ends_at: string;
}
