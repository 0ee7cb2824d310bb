import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import { priceBpsEvents } from '../../shared/domain/pricing/bps-events';
import { computePrice } from '../../shared/domain/pricing/compute-price';
import type { BpsTier, PricedConfiguration } from '../../shared/domain/pricing/types';
import { billingStep } from '../../shared/domain/subscriptions/billing';
import { meteredAmount, periodAt, periodClosedAt, readingKey, usageReads, type MeteredUsage } from '../../shared/domain/subscriptions/metered';
import type { StoredSubscriptionProduct, SubscriptionItem } from '../../shared/domain/subscriptions/subscription';

const bpsTier = fc.record({
  percentage: fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000),
  per_unit_cap: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
  per_unit_floor: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
  per_unit_fee: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
}).map((t) => (t.per_unit_cap !== null && t.per_unit_floor !== null && t.per_unit_floor > t.per_unit_cap ? { ...t, per_unit_cap: t.per_unit_floor, per_unit_floor: t.per_unit_cap } : t));
/** 1–4 contiguous tiers from unit 1, the last open-ended. */
const bpsTiers = fc.tuple(fc.array(bpsTier, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 3, maxLength: 3 })).map(([tiers, widths]) => {
  let from = 1;
  return tiers.map((t, i): BpsTier => {
    const to = i === tiers.length - 1 ? null : from + widths[i]! - 1;
    const tier = { ...t, from, to };
    from = (to ?? 0) + 1;
    return tier;
  });
});
const amounts = fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 30 });

describe('bps over a period of events', () => {
  it('prices events of one same amount as computePrice prices that many units of it', () => {
    fc.assert(
      fc.property(bpsTiers, fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 1_000_000 }), (tiers, n, amount) => {
        expect(priceBpsEvents(tiers, Array(n).fill(amount))).toEqual(computePrice({ type: 'bps', prices: tiers }, { quantity: n, amount }));
      }),
    );
  });

  it('with one tier, is the sum of each event priced alone (the cap and floor hold per event)', () => {
    fc.assert(
      fc.property(bpsTier, amounts, (tier, list) => {
        const tiers = [{ ...tier, from: 1, to: null }];
        const alone = list.reduce((sum, amount) => sum + computePrice({ type: 'bps', prices: tiers }, { quantity: 1, amount }).amount, 0);
        expect(priceBpsEvents(tiers, list).amount).toBe(alone);
      }),
    );
  });

  it('gives each tier the events whose rank falls in it, in order', () => {
    const tiers: BpsTier[] = [{ from: 1, to: 2, percentage: 10, per_unit_floor: 50 }, { from: 3, to: null, percentage: 1, per_unit_cap: 20 }];
    expect(priceBpsEvents(tiers, [100, 2_000, 5_000, 1_000])).toEqual({
      amount: 50 + 200 + 20 + 10,
      tiers: [{ from: 1, to: 2, units: 2, amount: 250 }, { from: 3, to: null, units: 2, amount: 30 }],
    });
  });
});

/** A monthly subscription from 2026-01-01 with one metered product, priced by `price`. */
const meteredSubscription = (price: PricedConfiguration): SubscriptionItem => {
  const product: StoredSubscriptionProduct = {
    id: 'subi_m', product_id: 'itm_m', price_configuration_id: 'prc_m', name: 'Calls', product_type: 'dynamic', quantity: 0,
    billing_interval: { period: 'months', count: 1 }, fee_timing: 'in_arrears', aggregator_id: 'agg_1', unit_name: 'calls', price, description: null,
  };
  const start = '2026-01-01T00:00:00.000Z';
  return {
    pk: 'WS#ws_u#SUB#sub_u', sk: 'SUB', _type: 'subscription', _version: 0, id: 'sub_u', customer_id: 'cus_1', status: 'active', currency: 'EUR',
    invoicing_entity_id: 'ive_1', quote_id: null, plan_id: null, checkout_session_id: null, billing_interval: { period: 'months', count: 1 },
    products: [product], starts_at: start, current_period_started_at: start, current_period_ends_at: '2026-02-01T00:00:00.000Z', next_billing_at: start,
    cancel_at_period_end: false, cancelled_at: null, ends_at: null, created_at: start, updated_at: start, billing_index: 0, end_index: null,
  };
};

describe('billingStep of a metered product, date after date', () => {
  const ctx = makeCtx('ws_u', 'req');
  // Volume prices are not monotone: 10 calls cost 1,000, 11 cost 550.
  const price: PricedConfiguration = {
    type: 'volume', prices: [{ from: 1, to: 10, amount: 100, unit_count: 1, on_tier_incomplete: 'pro_rata' }, { from: 11, to: null, amount: 50, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
  };

  it('bills each period, over its arrears and late lines, exactly the highest price its usage reached while open, never a negative line', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 6 }), (table) => {
        let s = meteredSubscription(price);
        const seen = new Map<string, number[]>();
        const billed = new Map<string, number>();
        let lastNow = '';
        table.forEach((quantities, j) => {
          const reads = usageReads(s);
          expect(reads.length).toBeLessThanOrEqual(quantities.length);
          const usage = new Map<string, MeteredUsage>(reads.map((r, i) => [readingKey(r.product.id, r.period), { quantity: quantities[i]! }]));
          reads.forEach((r, i) => seen.set(r.period.starts_at, [...(seen.get(r.period.starts_at) ?? []), meteredAmount(price, { quantity: quantities[i]! })]));
          const now = new Date(Date.parse(s.next_billing_at!) + 60_000).toISOString();
          lastNow = now;
          const step = billingStep(ctx, s, now, usage);
          for (const line of step.lines) {
            expect(line.gross).toBeGreaterThanOrEqual(0);
            billed.set(line.period_starts_at!, (billed.get(line.period_starts_at!) ?? 0) + line.gross);
          }
          expect(step.next.billing_index).toBe(j + 1);
          s = step.next;
        });
        for (const [period, amounts] of seen) expect(billed.get(period) ?? 0).toBe(Math.max(...amounts));
        // A period is kept for re-reading only until it is closed to late usage (35 days and an hour after its end).
        const kept = s.products[0]!.invoiced_usage!;
        expect(kept.every((r) => periodClosedAt(r.ends_at) > lastNow)).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('refuses to price a metered product without its usage read', () => {
    const s = { ...meteredSubscription(price), billing_index: 1, next_billing_at: '2026-02-01T00:00:00.000Z' };
    expect(() => billingStep(ctx, s, '2026-02-01T00:01:00.000Z')).toThrow(/No usage read/);
  });

  it('finds the period that contains now, from the cursor on; none once the subscription ended', () => {
    const s = meteredSubscription(price);
    expect(periodAt(s, '2025-12-15T00:00:00.000Z')).toEqual({ starts_at: '2026-01-01T00:00:00.000Z', ends_at: '2026-02-01T00:00:00.000Z' });
    expect(periodAt(s, '2026-03-01T00:00:00.000Z')).toEqual({ starts_at: '2026-03-01T00:00:00.000Z', ends_at: '2026-04-01T00:00:00.000Z' });
    expect(periodAt({ ...s, status: 'cancelled' }, '2026-01-02T00:00:00.000Z')).toBeNull();
    expect(periodAt({ ...s, ends_at: '2026-02-01T00:00:00.000Z' }, '2026-02-01T00:00:00.000Z')).toBeNull();
  });
});
