import { billingPeriods } from '../../shared/domain/quotes/lines';

const every = (period: 'days' | 'weeks' | 'months' | 'years', count = 1) => ({ period, count });

describe('billingPeriods: how many billing periods a quote line counts', () => {
  it('counts the billing periods of the commitment, rounded to the nearest whole, at least one', () => {
    const cases: [ReturnType<typeof every>, ReturnType<typeof every>, number][] = [
      [every('months'), every('years'), 12],
      [every('months', 3), every('years'), 4],
      [every('months', 3), every('years', 2), 8],
      [every('months'), every('months', 18), 18],
      [every('years'), every('years', 3), 3],
      [every('weeks'), every('months'), 4],
      [every('weeks'), every('years'), 52],
      [every('weeks', 2), every('weeks', 8), 4],
      [every('days', 30), every('months'), 1],
      [every('days'), every('weeks', 2), 14],
      [every('years'), every('months', 6), 1],
      [every('months'), every('days', 10), 1],
    ];
    for (const [billing, commitment, expected] of cases) {
      expect([billing, commitment, billingPeriods('subscription', billing, commitment)]).toEqual([billing, commitment, expected]);
    }
  });

  it('counts once a one-off price, a recurring price without a fixed commitment, and every line of a one_off quote', () => {
    expect(billingPeriods('subscription', { period: 'once' }, every('years'))).toBe(1);
    expect(billingPeriods('subscription', every('months'), { period: 'all' })).toBe(1);
    expect(billingPeriods('subscription_update', every('months'), every('years'))).toBe(12);
    expect(billingPeriods('one_off', every('months'), every('years'))).toBe(1);
  });
});
