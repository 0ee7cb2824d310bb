import fc from 'fast-check';
import { makeCtx } from '../../shared/context';
import type { PricedConfiguration } from '../../shared/domain/pricing/types';
import { billingStep } from '../../shared/domain/subscriptions/billing';
import { meteredAmount, readingKey, type MeteredUsage } from '../../shared/domain/subscriptions/metered';
import { drawDown } from '../../shared/domain/subscriptions/prepaid-commit';
import type { Period } from '../../shared/domain/subscriptions/lines';
import type { SubscriptionItem } from '../../shared/domain/subscriptions/subscription';
import { thresholdStep } from '../../shared/domain/subscriptions/thresholds';
import { meteredSubscription, monotonePrice } from '../support/metered-subscription';

const START = '2026-01-01T00:00:00.000Z';
const PERIODS: Period[] = [
  { starts_at: START, ends_at: '2026-02-01T00:00:00.000Z' },
  { starts_at: '2026-02-01T00:00:00.000Z', ends_at: '2026-03-01T00:00:00.000Z' },
  { starts_at: '2026-03-01T00:00:00.000Z', ends_at: '2026-04-01T00:00:00.000Z' },
];
const ctx = makeCtx('ws_u', 'p');

/** A subscription before its first billing date, one metered product priced by `price`, with a prepaid commit. */
const subscription = (price: PricedConfiguration, commit: number, thresholds: SubscriptionItem['billing_thresholds']): SubscriptionItem =>
  meteredSubscription(price, START, { billing_thresholds: thresholds, prepaid_commit: { amount: commit, rollover: false } });

const total = (lines: { gross: number }[]) => lines.reduce((sum, l) => sum + l.gross, 0);
const commitOf = (lines: { name: string; gross: number }[]) => total(lines.filter((l) => l.name === 'Prepaid commit'));
const usageOf = (lines: { revenue_type: string; gross: number }[]) => total(lines.filter((l) => l.revenue_type === 'usage'));

describe('prepaid commits over random usage streams', () => {
  it('each period bills the commit once plus max(0, usage price − commit), threshold invoices included; drawdowns never exceed the commit', () => {
    fc.assert(
      fc.property(
        monotonePrice,
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
