import fc from 'fast-check';
import type { AggregateOperation, AggregatorItem } from '../../shared/domain/metering/aggregator';
import { priceEvent, type MeteredLine } from '../../shared/domain/metering/price-calculation';
import { bpsUnitCharge, computePrice } from '../../shared/domain/pricing/compute-price';
import type { PricedConfiguration } from '../../shared/domain/pricing/types';

const aggregator = (id: string, operation: AggregateOperation, event_type = 'payment', property: string | null = 'amount'): AggregatorItem => ({
  pk: 'p', sk: id, _type: 'aggregator', _version: 1, id, name: id, event_type, operation, property, filters: [], unit_name: null,
  created_at: '', updated_at: '', deleted_at: null,
});

const line = (product_id: string, agg: AggregatorItem, price: PricedConfiguration, currency = 'EUR'): MeteredLine => ({
  subscription: { id: 'sub_1', currency }, product: { product_id, price }, aggregator: agg,
});

const event = (id: string, properties: Record<string, number | string>, event_type = 'payment') => ({
  id, customer_id: 'cus_1', event_type, timestamp: '2026-11-23T10:00:00.000Z', properties,
});

const bps: PricedConfiguration = { type: 'bps', prices: [{ from: 1, to: null, percentage: 2.5, per_unit_cap: 500, per_unit_floor: 30 }] };

describe('priceEvent', () => {
  it('bps: one transaction, the percentage of its amount held within floor and cap', () => {
    const lines = [line('itm_pay', aggregator('agg_sum', 'sum'), bps)];
    const amount = (value: number) => priceEvent(lines, event('e', { amount: value }))?.amount;
    expect([amount(10_000), amount(100_000), amount(100), amount(0)]).toEqual([250, 500, 30, 30]);
    expect(priceEvent(lines, event('e1', { amount: 10_000 }))).toEqual({
      event_id: 'e1', customer_id: 'cus_1', product_id: 'itm_pay', aggregator_id: 'agg_sum', quantity: 1, amount: 250, currency: 'EUR',
    });
  });

  it('no calculation for an event that matches no line, a negative quantity, a bps price on a count, or a quantity past the last tier', () => {
    const capped: PricedConfiguration = { type: 'volume', prices: [{ from: 1, to: 10, amount: 5, unit_count: 1, on_tier_incomplete: 'pro_rata' }] };
    const lines = [line('itm_bps_count', aggregator('agg_count', 'count'), bps), line('itm_units', aggregator('agg_units', 'sum', 'call', 'units'), capped)];
    expect(priceEvent(lines, event('a', { amount: 100 }))).toBeUndefined(); // only the bps-on-count line matches
    expect(priceEvent(lines, event('b', { units: -2 }, 'call'))).toBeUndefined();
    expect(priceEvent(lines, event('c', { units: 11 }, 'call'))).toBeUndefined();
    expect(priceEvent(lines, event('d', { units: 3 }, 'other'))).toBeUndefined();
    expect(priceEvent(lines, event('e', { units: 3 }, 'call'))).toMatchObject({ product_id: 'itm_units', quantity: 3, amount: 15 });
  });

  it('the first matching line (oldest subscription, product order) prices the event', () => {
    const fee: PricedConfiguration = { type: 'bulk', prices: [{ from: 1, to: null, amount: 7, unit_count: 1, on_tier_incomplete: 'pro_rata' }] };
    const calls = aggregator('agg_calls', 'count', 'call', null);
    const lines = [line('itm_first', calls, fee, 'USD'), line('itm_second', calls, { ...fee, prices: [{ ...fee.prices[0]!, amount: 9 }] })];
    expect(priceEvent(lines, event('x', {}, 'call'))).toMatchObject({ product_id: 'itm_first', quantity: 1, amount: 7, currency: 'USD' });
  });

  it('property: a non-bps event is priced as its own quantity alone; a bps event as one unit of its amount', () => {
    const tiers: PricedConfiguration = {
      type: 'bulk', prices: [{ from: 1, to: 100, amount: 12, unit_count: 10, on_tier_incomplete: 'pro_rata' }, { from: 101, to: null, amount: 4, unit_count: 1, on_tier_incomplete: 'pro_rata' }],
    };
    const units = line('itm_units', aggregator('agg_units', 'sum', 'call', 'units'), tiers);
    const pay = line('itm_pay', aggregator('agg_pay', 'sum'), bps);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (value) => {
        expect(priceEvent([units], event('u', { units: value }, 'call'))?.amount).toBe(computePrice(tiers, { quantity: value }).amount);
        expect(priceEvent([pay], event('p', { amount: value }))?.amount).toBe(Number(bpsUnitCharge(bps.prices[0]!, BigInt(value))));
      }),
    );
  });
});
