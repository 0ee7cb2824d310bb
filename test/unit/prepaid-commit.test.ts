import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import type { PricedConfiguration } from '../../shared/domain/pricing/types';
import { billingStep } from '../../shared/domain/subscriptions/billing';
import { meteredAmount, readingKey, type MeteredUsage } from '../../shared/domain/subscriptions/metered';
import { drawDown } from '../../shared/domain/subscriptions/prepaid-commit';
import type { Period } from '../../shared/domain/subscriptions/lines';
import type { StoredSubscriptionProduct, SubscriptionItem } from '../../shared/domain/subscriptions/subscription';
import { thresholdStep } from '../../shared/domain/subscriptions/thresholds';

const START = '2026-01-01T00:00:00.000Z';
const PERIODS: Period[] = [
  { starts_at: START, ends_at: '2026-02-01T00:00:00.000Z' },
  { starts_at: '2026-02-01T00:00:00.000Z', ends_at: '2026-03-01T00:00:00.000Z' },
  { starts_at: '2026-03-01T00:00:00.000Z', ends_at: '2026-04-01T00:00:00.000Z' },
];
const ctx = makeCtx('ws_u', 'p');

/** A subscription before its first billing date, one metered product priced by `price`, with a prepaid commit. */
function subscription(price: PricedConfiguration, commit: number, thresholds: SubscriptionItem['billing_thresholds']): SubscriptionItem {
  const product: StoredSubscriptionProduct = {
    id: 'subi_m', product_id: 'itm_m', price_configuration_id: 'prc_m', name: 'Calls', product_type: 'dynamic', quantity: 0,
    billing_interval: { period: 'months', count: 1 }, fee_timing: 'in_arrears', aggregator_id: 'agg_1', unit_name: 'calls', price, description: null,
  };
  return {
    pk: 'WS#ws_u#SUB#sub_u', sk: 'SUB', _type: 'subscription', _version: 1, id: 'sub_u', customer_id: 'cus_1', status: 'active', currency: 'EUR',
    invoicing_entity_id: 'ive_1', quote_id: null, plan_id: null, checkout_session_id: null, billing_interval: { period: 'months', count: 1 },
    products: [product], starts_at: START, current_period_started_at: START, current_period_ends_at: START, next_billing_at: START,
    cancel_at_period_end: false, cancelled_at: null, ends_at: null, created_at: START, updated_at: START, billing_index: 0, end_index: null,
    billing_thresholds: thresholds, prepaid_commit: { amount: commit, rollover: false },
  };
}

const price = fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 400 })).map(
  ([amount, rise, width]): PricedConfiguration => ({
    type: 'volume',
    prices: [
      { from: 1, to: width, amount, unit_count: 1, on_tier_incomplete: 'pro_rata' },
      { from: width + 1, to: null, amount: amount + rise, unit_count: 1, on_tier_incomplete: 'pro_rata' },
    ],
  } as PricedConfiguration),
);

const total = (lines: { gross: number }[]) => lines.reduce((sum, l) => sum + l.gross, 0);
const commitOf = (lines: { name: string; gross: number }[]) => total(lines.filter((l) => l.name === 'Prepaid commit'));
const usageOf = (lines: { revenue_type: string; gross: number }[]) => total(lines.filter((l) => l.revenue_type === 'usage'));

describe('prepaid commits over random usage streams', () => {
  it('each period bills the commit once plus max(0, usage price − commit), threshold invoices included; drawdowns never exceed the commit', () => {
    fc.assert(
      fc.property(
        price,
        fc.integer({ min: 1, max: 200_000 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 15 }), { minLength: 3, maxLength: 3 }),
        fc.option(fc.record({ amount_gte: fc.option(fc.integer({ min: 1, max: 50_000 }), { nil: null }), usage_gte: fc.option(fc.integer({ min: 1, max: 800 }), { nil: null }) }), { nil: null }),
        (configuration, commit, streams, thresholds) => {
          const usage = new Map<string, MeteredUsage>(PERIODS.map((p) => [readingKey('subi_m', p), { quantity: 0 }]));
          const first = billingStep(ctx, subscription(configuration, commit, thresholds), START, usage);
          expect(commitOf(first.lines)).toBe(commit); // invoiced in advance for period 0
          let s = first.next;
          PERIODS.forEach((period, i) => {
            let quantity = 0;
            let interim = 0;
            for (const added of streams[i]!) {
              quantity += added;
              usage.set(readingKey('subi_m', period), { quantity });
              const step = thresholdStep(s, period, usage);
              if (!step) continue;
              interim += total(step.lines);
              s = { ...s, products: step.products, ...(step.commit_balance && { commit_balance: step.commit_balance }), _version: s._version + 1 };
              expect(s.commit_balance!.drawn).toBeLessThanOrEqual(commit);
              expect(thresholdStep(s, period, usage)).toBeUndefined(); // a retry draws and bills nothing more
            }
            const price = meteredAmount(configuration, { quantity });
            const end = billingStep(ctx, s, period.ends_at, usage);
            const overage = interim + usageOf(end.lines);
            expect(overage).toBe(Math.max(0, price - commit));
            expect(price - overage).toBeLessThanOrEqual(commit); // what was drawn
            expect(commitOf(end.lines)).toBe(commit); // the next period's, once
            expect(end.next.commit_balance).toEqual({ starts_at: period.ends_at, ends_at: end.next.current_period_ends_at, amount: commit, drawn: 0 });
            s = end.next;
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('draws lines in order, in integers, and bills only what the balance does not cover', () => {
    const l = (gross: number) => ({ name: 'Calls', gross, description: null }) as unknown as Parameters<typeof drawDown>[0][number];
    const drawn = drawDown([l(300), l(500), l(200)], 600);
    expect(drawn.drawn).toBe(600);
    expect(drawn.lines.map((x) => [x.name, x.gross, x.units_count])).toEqual([['Calls (overage)', 200, 1], ['Calls', 200, undefined]]);
    expect(drawDown([l(300)], 0)).toEqual({ lines: [l(300)], drawn: 0 });
  });
});
