import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import type { PricedConfiguration } from '../../shared/domain/pricing/types';
import { billingStep } from '../../shared/domain/subscriptions/billing';
import { meteredAmount, readingKey, type MeteredUsage } from '../../shared/domain/subscriptions/metered';
import type { SubscriptionItem } from '../../shared/domain/subscriptions/subscription';
import { thresholdStep } from '../../shared/domain/subscriptions/thresholds';
import { meteredSubscription, monotonePrice } from '../support/metered-subscription';

const START = '2026-01-01T00:00:00.000Z';
const END = '2026-02-01T00:00:00.000Z';
const period = { starts_at: START, ends_at: END };

/** A subscription in its first period (billing date 1 next) with one metered product priced by `price`. */
const running = (price: PricedConfiguration, thresholds: SubscriptionItem['billing_thresholds']): SubscriptionItem =>
  meteredSubscription(price, START, { _version: 3, current_period_ends_at: END, next_billing_at: END, billing_index: 1, billing_thresholds: thresholds });

const readings = (quantity: number) => new Map<string, MeteredUsage>([[readingKey('subi_m', period), { quantity }]]);

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
