/**
 * Billing periods on a zone's wall clock (shared/domain/subscriptions/calendar.ts): month ends clamp and do not
 * drift, DST neither creates nor skips a period, skipped and repeated local times resolve as documented.
 */
import fc from 'fast-check';
import { addLocalInterval, instantOf, wallClockAt } from '../../shared/domain/subscriptions/calendar';

const monthly = { period: 'months', count: 1 } as const;
const boundaries = (anchor: string, zone: string, count: number, interval: Parameters<typeof addLocalInterval>[1] = monthly) =>
  Array.from({ length: count }, (_, k) => addLocalInterval(anchor, interval, k, zone));

describe('monthly periods anchored on the 31st', () => {
  it('UTC: 31 Jan → 28 Feb → 31 Mar → 30 Apr, 29 Feb in a leap year, always from the anchor', () => {
    expect(boundaries('2026-01-31T10:00:00.000Z', 'Etc/UTC', 5)).toEqual([
      '2026-01-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z', '2026-04-30T10:00:00.000Z', '2026-05-31T10:00:00.000Z',
    ]);
    expect(addLocalInterval('2027-12-31T00:00:00.000Z', monthly, 2, 'Etc/UTC')).toBe('2028-02-29T00:00:00.000Z');
    expect(addLocalInterval('2028-02-29T00:00:00.000Z', { period: 'years', count: 1 }, 1, 'Etc/UTC')).toBe('2029-02-28T00:00:00.000Z');
  });

  it('Europe/Paris: midnight local on each month end, at UTC+1 in winter and UTC+2 in summer', () => {
    // Midnight 31 Jan 2026 in Paris (CET) is 23:00 UTC the day before.
    expect(boundaries('2026-01-30T23:00:00.000Z', 'Europe/Paris', 14)).toEqual([
      '2026-01-30T23:00:00.000Z', '2026-02-27T23:00:00.000Z', '2026-03-30T22:00:00.000Z', '2026-04-29T22:00:00.000Z',
      '2026-05-30T22:00:00.000Z', '2026-06-29T22:00:00.000Z', '2026-07-30T22:00:00.000Z', '2026-08-30T22:00:00.000Z',
      '2026-09-29T22:00:00.000Z', '2026-10-30T23:00:00.000Z', '2026-11-29T23:00:00.000Z', '2026-12-30T23:00:00.000Z',
      '2027-01-30T23:00:00.000Z', '2027-02-27T23:00:00.000Z',
    ]);
  });

  it('America/Los_Angeles: midnight local, at UTC−8 in winter and UTC−7 in summer', () => {
    expect(boundaries('2026-01-31T08:00:00.000Z', 'America/Los_Angeles', 4)).toEqual([
      '2026-01-31T08:00:00.000Z', '2026-02-28T08:00:00.000Z', '2026-03-31T07:00:00.000Z', '2026-04-30T07:00:00.000Z',
    ]);
    expect(addLocalInterval('2026-01-31T08:00:00.000Z', monthly, 10, 'America/Los_Angeles')).toBe('2026-11-30T08:00:00.000Z');
  });
});

describe('DST', () => {
  it('a daily period across the spring change lasts 23 hours and the autumn one 25: one period per local day', () => {
    const daily = { period: 'days', count: 1 } as const;
    expect(boundaries('2026-03-28T00:00:00.000Z', 'Europe/Paris', 3, daily)).toEqual(['2026-03-28T00:00:00.000Z', '2026-03-29T00:00:00.000Z', '2026-03-29T23:00:00.000Z']);
    expect(boundaries('2026-10-24T22:00:00.000Z', 'Europe/Paris', 3, daily)).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z', '2026-10-26T23:00:00.000Z']);
  });

  it('a local time the spring change skips moves forward by the gap; one the autumn change repeats takes the first', () => {
    const local = { year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 0, millisecond: 0 };
    expect(new Date(instantOf(local, 'Europe/Paris')).toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(new Date(instantOf({ ...local, month: 10, day: 25 }, 'Europe/Paris')).toISOString()).toBe('2026-10-25T00:30:00.000Z'); // 02:30 CEST
    // An anchor at 02:30 local keeps 02:30 on the days it exists.
    const daily = { period: 'days', count: 1 } as const;
    expect(boundaries('2026-03-28T01:30:00.000Z', 'Europe/Paris', 3, daily)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
  });

  const zones = ['Europe/Paris', 'America/Los_Angeles', 'Australia/Sydney', 'Asia/Kolkata', 'America/Santiago', 'Etc/UTC', 'Pacific/Chatham'];
  it('in any zone, boundaries strictly increase and each falls on the anchored local day (clamped) at the anchored time, except inside a gap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }), fc.constantFrom(...zones),
        fc.constantFrom({ period: 'months', count: 1 } as const, { period: 'months', count: 3 } as const, { period: 'years', count: 1 } as const, { period: 'weeks', count: 1 } as const, { period: 'days', count: 1 } as const),
        (epoch, zone, interval) => {
          const anchor = new Date(Math.floor(epoch / 1000) * 1000).toISOString();
          const start = wallClockAt(Date.parse(anchor), zone);
          const all = boundaries(anchor, zone, 30, interval);
          for (let k = 1; k < all.length; k++) {
            expect(Date.parse(all[k]!)).toBeGreaterThan(Date.parse(all[k - 1]!));
            const local = wallClockAt(Date.parse(all[k]!), zone);
            if (interval.period === 'months' || interval.period === 'years') {
              const lastDay = new Date(Date.UTC(local.year, local.month, 0)).getUTCDate();
              expect(local.day).toBe(Math.min(start.day, lastDay));
            }
            const sameTime = local.hour === start.hour && local.minute === start.minute;
            // Only a skipped local time (a gap: at most an hour in these zones) may move the time of day.
            if (!sameTime) expect(Math.abs(local.hour * 60 + local.minute - (start.hour * 60 + start.minute))).toBeLessThanOrEqual(60);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
