import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import type { PricedConfiguration } from '../../shared/domain/pricing/types';
import { billingStep } from '../../shared/domain/subscriptions/billing';
import { meteredAmount, readingKey, type MeteredUsage } from '../../shared/domain/subscriptions/metered';
import type { StoredSubscriptionProduct, SubscriptionItem } from '../../shared/domain/subscriptions/subscription';
import { thresholdStep } from '../../shared/domain/subscriptions/thresholds';

const START = '2026-01-01T00:00:00.000Z';
const END = '2026-02-01T00:00:00.000Z';
const period = { starts_at: START, ends_at: END };

/** A subscription in its first period (billing date 1 next) with one metered product priced by `price`. */
function running(price: PricedConfiguration, thresholds: SubscriptionItem['billing_thresholds']): SubscriptionItem {
  const product: StoredSubscriptionProduct = {
    id: 'subi_m', product_id: 'itm_m', price_configuration_id: 'prc_m', name: 'Calls', product_type: 'dynamic', quantity: 0,
    billing_interval: { period: 'months', count: 1 }, fee_timing: 'in_arrears', aggregator_id: 'agg_1', unit_name: 'calls', price, description: null,
  };
  return {
    pk: 'WS#ws_u#SUB#sub_u', sk: 'SUB', _type: 'subscription', _version: 3, id: 'sub_u', customer_id: 'cus_1', status: 'active', currency: 'EUR',
    invoicing_entity_id: 'ive_1', quote_id: null, plan_id: null, checkout_session_id: null, billing_interval: { period: 'months', count: 1 },
    products: [product], starts_at: START, current_period_started_at: START, current_period_ends_at: END, next_billing_at: END,
    cancel_at_period_end: false, cancelled_at: null, ends_at: null, created_at: START, updated_at: START, billing_index: 1, end_index: null, billing_thresholds: thresholds,
  };
}

const readings = (quantity: number) => new Map<string, MeteredUsage>([[readingKey('subi_m', period), { quantity }]]);

/** Volume prices whose unit price never decreases from tier to tier: the price is then monotone in the quantity. */
const monotonePrice = fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 400 })).map(
  ([amount, rise, width]): PricedConfiguration => ({
    type: 'volume',
    prices: [
      { from: 1, to: width, amount, unit_count: 1, on_tier_incomplete: 'pro_rata' },
      { from: width + 1, to: null, amount: amount + rise, unit_count: 1, on_tier_incomplete: 'pro_rata' },
    ],
  } as PricedConfiguration),
);

describe('billing thresholds over random usage streams', () => {
  it('threshold invoices and the period-end invoice add up to the price of the whole period\'s usage; each threshold invoice reaches its threshold', () => {
    fc.assert(
      fc.property(
        monotonePrice,
        fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 40 }),
        fc.record({ amount_gte: fc.option(fc.integer({ min: 1, max: 50_000 }), { nil: null }), usage_gte: fc.option(fc.integer({ min: 1, max: 800 }), { nil: null }) }),
        (price, increments, thresholds) => {
          let s = running(price, thresholds);
          let quantity = 0;
          const interim: number[] = [];
          for (const added of increments) {
            quantity += added;
            const step = thresholdStep(s, period, readings(quantity));
            if (!step) continue;
            const billed = step.lines.reduce((sum, l) => sum + l.gross, 0);
            const units = step.lines.reduce((sum, l) => sum + l.units_count, 0);
            expect((thresholds.amount_gte !== null && billed >= thresholds.amount_gte) || (thresholds.usage_gte !== null && units >= thresholds.usage_gte)).toBe(true);
            interim.push(billed);
            s = { ...s, products: step.products, _version: s._version + 1 };
            // The same reading again (a retried batch) crosses nothing.
            expect(thresholdStep(s, period, readings(quantity))).toBeUndefined();
          }
          const final = billingStep(makeCtx('ws_u', 'p'), s, END, readings(quantity));
          const atEnd = final.lines.filter((l) => l.revenue_type === 'usage').reduce((sum, l) => sum + l.gross, 0);
          expect(interim.reduce((a, b) => a + b, 0) + atEnd).toBe(meteredAmount(price, { quantity }));
        },
      ),
      { numRuns: 300 },
    );
  });
});
