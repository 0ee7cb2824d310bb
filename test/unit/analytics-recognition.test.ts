import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { daysByMonth, distribute, recogniseByMonth } from '../../shared/domain/analytics/recognition';

const months = (m: Map<string, number>) => Object.fromEntries(m);

describe('recognised revenue: straight-line by service month (docs/analytics.md)', () => {
  it('a 12-month prepaid period recognises 1/12 in each month, whatever the months’ lengths', () => {
    const parts = recogniseByMonth(120_000, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z');
    expect([...parts.values()]).toEqual(Array(12).fill(10_000));
  });

  it('a period starting mid-month: the partial months pro rata by their own days, the full ones 1/12', () => {
    // 15 Jan → 15 Jan: January 17/31 of a month, February…December whole, January 14/31: 12 month-weights.
    const parts = recogniseByMonth(120_000, '2026-01-15T00:00:00.000Z', '2027-01-15T00:00:00.000Z');
    expect(months(parts)).toMatchObject({ '2026-01': 5_484, '2026-02': 10_000, '2026-12': 10_000, '2027-01': 4_516 });
    expect([...parts.values()].reduce((a, b) => a + b, 0)).toBe(120_000);
  });

  it('cents that do not divide go to the months with the largest remainders, earliest first; the parts sum exactly', () => {
    expect(distribute(100, [1n, 1n, 1n])).toEqual([34, 33, 33]);
    expect(distribute(-100, [1n, 1n, 1n])).toEqual([-34, -33, -33]);
    expect(months(recogniseByMonth(1_000, '2026-01-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'))).toEqual({ '2026-01': 334, '2026-02': 333, '2026-03': 333 });
  });

  it('a period inside one month is that month’s; a period shorter than a day counts its day', () => {
    expect(months(recogniseByMonth(999, '2026-02-03T10:00:00.000Z', '2026-02-10T00:00:00.000Z'))).toEqual({ '2026-02': 999 });
    expect([...daysByMonth('2026-03-31T23:00:00.000Z', '2026-03-31T23:30:00.000Z')]).toEqual([['2026-03', { days: 1, ofMonth: 31 }]]);
  });

  it('property: for any amount and period, the parts sum to the amount and each is within one minor unit of its exact share', () => {
    const day = fc.integer({ min: 0, max: 3 * 365 }).map((n) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString());
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), day, fc.integer({ min: 1, max: 800 }), (amount, start, length) => {
        const end = new Date(Date.parse(start) + length * 86_400_000).toISOString();
        const parts = recogniseByMonth(amount, start, end);
        expect([...parts.values()].reduce((a, b) => a + b, 0)).toBe(amount);
        const weights = [...daysByMonth(start, end).values()].map(({ days, ofMonth }) => days / ofMonth);
        const total = weights.reduce((a, b) => a + b, 0);
        [...parts.values()].forEach((part, i) => expect(Math.abs(part - (amount * weights[i]!) / total)).toBeLessThan(1 + 1e-6));
      }),
    );
  });
});
