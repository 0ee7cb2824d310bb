import { describe, expect, it } from '@jest/globals';
import { customerMovement, subscriptionMrr, type SubscriptionFacts } from '../../shared/domain/analytics/mrr';
import { METRICS } from '../../shared/domain/analytics/metrics';
import { ageingOf, seriesOf } from '../../shared/domain/analytics/series';

/** The worked examples of docs/analytics.md, each as written there. */
const fee = (amount: number, period: string, count = 1, quantity = 1) =>
  ({ billing_interval: { period, count }, product_type: 'flat_fee', quantity, price: { type: 'fee', prices: [{ amount }] } });
const subscription = (status: string, ...products: unknown[]) =>
  ({ status, customer_id: 'cus_1', currency: 'EUR', invoicing_entity_id: 'ent_1', products } as unknown as SubscriptionFacts);

describe('docs/analytics.md, worked examples', () => {
  it('MRR: €1,200 a year is €100 a month; €30 a week × 2 seats is €260; usage and a paused subscription count nothing', () => {
    expect(subscriptionMrr(subscription('active', fee(120_000, 'years')))).toBe(10_000);
    expect(subscriptionMrr(subscription('active', fee(3_000, 'weeks', 1, 2)))).toBe(26_000);
    expect(subscriptionMrr(subscription('active', { ...fee(500, 'months'), product_type: 'dynamic' }))).toBe(0);
    expect(subscriptionMrr(subscription('paused', fee(120_000, 'years')))).toBe(0);
  });

  it('movements: 0 → 100 new, 100 → 150 expansion, 150 → 0 churn, 0 → 80 reactivation; each sums to the change', () => {
    const steps = [10_000, 15_000, 0, 8_000];
    let state = { mrr: 0, ever_active: false };
    const seen = steps.map((mrr) => {
      const { values, after } = customerMovement(state, mrr);
      state = after;
      return values;
    });
    expect(seen).toEqual([
      { mrr: 10_000, new: 10_000, active_customers: 1 },
      { mrr: 5_000, expansion: 5_000 },
      { mrr: -15_000, churn: -15_000, active_customers: -1, churned_customers: 1 },
      { mrr: 8_000, reactivation: 8_000, active_customers: 1 },
    ]);
  });

  it('ageing on 2026-05-01: due 2026-05-10 current, 2026-04-20 1–30, 2026-03-01 61–90, 2026-01-01 over 90', () => {
    const items = [['2026-05-10', 100], ['2026-04-20', 200], ['2026-03-01', 300], ['2026-01-01', 400]].map(([day, outstanding]) => ({ day: day as string, values: { outstanding: outstanding as number } }));
    expect(ageingOf(items, '2026-05-01')).toEqual({
      period_start: '2026-05-01', value: 1_000, current: 100, overdue_1_30: 200, overdue_31_60: 0, overdue_61_90: 300, overdue_over_90: 400,
    });
  });

  it('a level sums every change up to the period’s end, from before `from`; a flow only the period’s own', () => {
    const items = [{ day: '2025-12-15', values: { mrr: 10_000 } }, { day: '2026-01-20', values: { mrr: 5_000 } }, { day: '2026-02-03', values: { mrr: -2_000 } }];
    expect(seriesOf(METRICS.mrr, items, '2026-01-01', '2026-02-28', 'month').map((p) => p.value)).toEqual([15_000, 13_000]);
    const invoiced = [{ day: '2025-12-15', values: { invoiced: 1 } }, { day: '2026-01-20', values: { invoiced: 2 } }, { day: '2026-02-03', values: { invoiced: 4 } }];
    expect(seriesOf(METRICS.invoiced, invoiced, '2026-01-01', '2026-02-28', 'month').map((p) => p.value)).toEqual([2, 4]);
    expect(seriesOf(METRICS.invoiced, invoiced, '2026-01-19', '2026-02-03', 'week').map((p) => [p.period_start, p.value])).toEqual([['2026-01-19', 2], ['2026-01-26', 0], ['2026-02-02', 4]]);
  });
});
