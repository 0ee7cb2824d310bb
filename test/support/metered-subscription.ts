/** A subscription item with one metered product, for the pure billing steps' property tests (thresholds, commits). */
import fc from 'fast-check';
import type { PricedConfiguration } from '../../shared/domain/pricing/types';
import type { StoredSubscriptionProduct, SubscriptionItem } from '../../shared/domain/subscriptions/subscription';

/** Monthly from `start`; the metered product is `subi_m` (readingKey('subi_m', period)); `item` overrides members. */
export function meteredSubscription(price: PricedConfiguration, start: string, item: Partial<SubscriptionItem>): SubscriptionItem {
  const product: StoredSubscriptionProduct = {
    id: 'subi_m', product_id: 'itm_m', price_configuration_id: 'prc_m', name: 'Calls', product_type: 'dynamic', quantity: 0,
    billing_interval: { period: 'months', count: 1 }, fee_timing: 'in_arrears', aggregator_id: 'agg_1', unit_name: 'calls', price, description: null,
  };
  return {
    pk: 'WS#ws_u#SUB#sub_u', sk: 'SUB', _type: 'subscription', _version: 1, id: 'sub_u', customer_id: 'cus_1', status: 'active', currency: 'EUR',
    invoicing_entity_id: 'ive_1', quote_id: null, plan_id: null, checkout_session_id: null, billing_interval: { period: 'months', count: 1 },
    products: [product], starts_at: start, current_period_started_at: start, current_period_ends_at: start, next_billing_at: start,
    cancel_at_period_end: false, cancelled_at: null, ends_at: null, created_at: start, updated_at: start, billing_index: 0, end_index: null,
    ...item,
  };
}

/** Volume prices whose unit price never decreases from tier to tier: the price is then monotone in the quantity. */
export const monotonePrice = fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 400 })).map(
  ([amount, rise, width]): PricedConfiguration => ({
    type: 'volume',
    prices: [
      { from: 1, to: width, amount, unit_count: 1, on_tier_incomplete: 'pro_rata' },
      { from: width + 1, to: null, amount: amount + rise, unit_count: 1, on_tier_incomplete: 'pro_rata' },
    ],
  } as PricedConfiguration),
);
