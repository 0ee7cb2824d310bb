/**
 * Proration (shared/domain/subscriptions/proration.ts): the worked examples of docs/subscriptions.md ("Proration"),
 * each one a row here, and the properties over random sequences of changes within a period: the total billed for the
 * period is the time-weighted price of what was held (within one minor unit per change), and no invoice is negative.
 */
import fc from 'fast-check';
import { invoiceAmounts } from '../../shared/domain/invoices/amounts';
import type { PricedConfiguration } from '../../shared/domain/pricing/types';
import { creditUse, finalProration, prorate, prorationSeconds, type Proration } from '../../shared/domain/subscriptions/proration';
import type { StoredSubscriptionProduct } from '../../shared/domain/subscriptions/subscription';
import { taxAmount } from '../../shared/money/amounts';

const monthly = { period: 'months', count: 1 } as const;

function product(id: string, kind: 'seat' | 'flat_fee' | 'dynamic', unit: number, quantity: number): StoredSubscriptionProduct {
  const price: PricedConfiguration = (kind === 'flat_fee'
    ? { type: 'fee', prices: [{ amount: unit }] }
    : { type: 'volume', prices: [{ from: 1, to: null, amount: unit, unit_count: 1, on_tier_incomplete: 'pro_rata' }] }) as unknown as PricedConfiguration;
  return {
    id, product_id: `prd_${id}`, price_configuration_id: `prc_${id}_${unit}`, name: id, product_type: kind, quantity, billing_interval: monthly,
    fee_timing: kind === 'dynamic' ? 'in_arrears' : 'in_advance', aggregator_id: null, unit_name: null, price, description: null,
  };
}

const period = { starts_at: '2026-03-01T00:00:00.000Z', ends_at: '2026-04-01T00:00:00.000Z' };
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** What a change settled with create_invoice gives: the invoice (excluding tax, then with 20 % tax) and the wallet credit. */
function settled(p: Proration, rate = '20') {
  const { taken, left } = creditUse(p.lines, [], p.credits);
  const surplus = sum(left.map((c) => c.discount_amount ?? 0));
  const invoice = p.lines.length > 0 ? invoiceAmounts(p.lines, taken, rate) : null;
  return {
    charges: p.lines.map((l) => l.gross), credits: p.credits.map((c) => c.discount_amount),
    invoice: invoice && [invoice.amount_excluding_tax, invoice.total_amount], wallet: surplus + taxAmount(surplus, rate),
  };
}

describe('the worked examples of docs/subscriptions.md', () => {
  const examples = [
    {
      name: '1. upgrade: 5 → 8 seats at 12.00, on day 11 of 31 (21 days left)',
      before: [product('seats', 'seat', 1_200, 5)], after: [product('seats', 'seat', 1_200, 8)], at: '2026-03-11T00:00:00.000Z',
      expected: { charges: [6_503], credits: [4_065], invoice: [2_438, 2_926], wallet: 0 },
    },
    {
      name: '2. the same change 999 ms later: whole seconds, the same amounts',
      before: [product('seats', 'seat', 1_200, 5)], after: [product('seats', 'seat', 1_200, 8)], at: '2026-03-11T00:00:00.999Z',
      expected: { charges: [6_503], credits: [4_065], invoice: [2_438, 2_926], wallet: 0 },
    },
    {
      name: '3. downgrade: a 100.00 plan to 20.00 at noon on day 16 (15.5 days left): the invoice is 0, the surplus goes to the wallet',
      before: [product('plan', 'flat_fee', 10_000, 1)], after: [product('plan-lite', 'flat_fee', 2_000, 1)], at: '2026-03-16T12:00:00.000Z',
      expected: { charges: [1_000], credits: [5_000], invoice: [0, 0], wallet: 4_800 },
    },
    {
      name: '4. removal: 3 seats at 12.00 removed on day 21 (11 days left): no invoice, a wallet credit',
      before: [product('seats', 'seat', 1_200, 3)], after: [], at: '2026-03-21T00:00:00.000Z',
      expected: { charges: [], credits: [1_277], invoice: null, wallet: 1_532 },
    },
    {
      name: '5. in arrears: 5 → 10 units at 2.00 on day 11: the old quantity owed for 10 days, the new one credited for them',
      before: [product('calls', 'dynamic', 200, 5)], after: [product('calls', 'dynamic', 200, 10)], at: '2026-03-11T00:00:00.000Z',
      expected: { charges: [323], credits: [645], invoice: [0, 0], wallet: 386 },
    },
  ];

  it.each(examples)('$name', ({ before, after, at, expected }) => {
    expect(settled(prorate(before, after, { ...period, at }, true))).toEqual(expected);
  });

  it('uses whole seconds of the period: 31 days are 2,678,400 s, 21 of them left on day 11', () => {
    expect(prorationSeconds({ ...period, at: '2026-03-11T00:00:00.500Z' })).toEqual({ total: 2_678_400, remaining: 1_814_400, elapsed: 864_000 });
  });

  it('prorates nothing in advance for a period not billed in advance (trial, pause without billing), nor for an unchanged product', () => {
    expect(prorate([product('seats', 'seat', 1_200, 5)], [product('seats', 'seat', 1_200, 8)], { ...period, at: '2026-03-11T00:00:00.000Z' }, false)).toEqual({ lines: [], credits: [] });
    expect(prorate([product('seats', 'seat', 1_200, 5)], [product('seats', 'seat', 1_200, 5)], { ...period, at: '2026-03-11T00:00:00.000Z' }, true)).toEqual({ lines: [], credits: [] });
  });

  it('an immediate cancellation on day 11 owes the in-arrears part so far and, with prorate, credits the unused in-advance part', () => {
    const products = [product('seats', 'seat', 1_200, 5), product('calls', 'dynamic', 200, 5)];
    const final = finalProration(products, { ...period, at: '2026-03-11T00:00:00.000Z' }, { prorate: true, advanceBilled: true, arrearsDue: true });
    expect(settled(final)).toEqual({ charges: [323], credits: [4_065], invoice: [0, 0], wallet: 4_490 });
    const without = finalProration(products, { ...period, at: '2026-03-11T00:00:00.000Z' }, { prorate: false, advanceBilled: true, arrearsDue: true });
    expect(settled(without)).toEqual({ charges: [323], credits: [], invoice: [323, 388], wallet: 0 });
  });
});

describe('properties over random changes within one period', () => {
  const periodMs = Date.parse(period.ends_at) - Date.parse(period.starts_at);
  const changes = fc.array(fc.record({ at: fc.integer({ min: 1, max: periodMs - 1 }), quantity: fc.integer({ min: 0, max: 40 }) }), { minLength: 1, maxLength: 8 });

  it.each(['seat', 'dynamic'] as const)('%s: the total billed is the time-weighted price held (±1 per change), no invoice is negative, no credit is lost', (kind) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 40 }), changes, (unit, first, moves) => {
        const sorted = [...moves].sort((a, b) => a.at - b.at);
        let held = product('p', kind, unit, first);
        // In advance: the period's invoice billed the first quantity; in arrears: the period's end bills the last one.
        let billed = kind === 'seat' ? unit * first : 0;
        let exact = 0n;
        let since = 0;
        for (const move of sorted) {
          const at = new Date(Date.parse(period.starts_at) + move.at).toISOString();
          const next = { ...held, quantity: move.quantity };
          const proration = prorate([held], [next], { ...period, at }, true);
          const { absorbed, left } = creditUse(proration.lines, [], proration.credits);
          const credits = sum(proration.credits.map((c) => c.discount_amount ?? 0));
          const charges = sum(proration.lines.map((l) => l.gross));
          expect(charges - absorbed).toBeGreaterThanOrEqual(0); // the invoice
          expect(absorbed + sum(left.map((c) => c.discount_amount ?? 0))).toBe(credits); // the rest goes to the wallet
          billed += charges - credits;
          const second = Math.floor(Date.parse(at) / 1000) - Math.floor(Date.parse(period.starts_at) / 1000);
          exact += BigInt(unit * held.quantity) * BigInt(second - since);
          since = second;
          held = next;
        }
        if (kind === 'dynamic') billed += unit * held.quantity;
        const total = periodMs / 1000;
        exact += BigInt(unit * held.quantity) * BigInt(total - since);
        // |billed − exact / total| ≤ number of changes, in integers.
        const diff = BigInt(billed) * BigInt(total) - exact;
        expect((diff < 0n ? -diff : diff) <= BigInt(sorted.length) * BigInt(total)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
