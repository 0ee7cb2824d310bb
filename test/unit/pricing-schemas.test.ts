/** The JSON Schemas of `prices` compile under ajv strict mode (as bin/generate-validators.ts compiles them) and say what docs/pricing.md says. */
import Ajv from 'ajv';
import { bpsTierSchema, feePriceSchema, packSchema, PRICE_TYPES, pricesSchemaFor, tierSchema } from '../../shared/schemas/prices';

const AjvClass = (Ajv as unknown as { default?: typeof Ajv }).default ?? Ajv;
const ajv = new AjvClass({ allErrors: true, strict: true });
const valid = (schema: object, data: unknown) => ajv.validate(schema, data);

describe('price schemas', () => {
  it('compile in strict mode, for every price type', () => {
    for (const schema of [feePriceSchema, tierSchema, bpsTierSchema, packSchema]) expect(() => ajv.compile(schema)).not.toThrow();
    for (const type of PRICE_TYPES) expect(() => ajv.compile(pricesSchemaFor(type))).not.toThrow();
    expect(PRICE_TYPES).toEqual(['fee', 'volume', 'packaged', 'bulk', 'bps', 'bundle']);
  });

  it('accept the shapes of the worked examples', () => {
    expect(valid(pricesSchemaFor('fee'), [{ amount: 4900 }])).toBe(true);
    const tiers = [
      { from: 0, to: 10, amount: 1000, unit_count: 1, on_tier_incomplete: 'pro_rata' },
      { from: 11, to: 50, amount: 800, unit_count: 1, on_tier_incomplete: 'pay_in_full' },
      { from: 51, to: null, amount: 500, unit_count: 1, on_tier_incomplete: 'do_not_charge' },
    ];
    for (const type of ['volume', 'packaged', 'bulk'] as const) expect(valid(pricesSchemaFor(type), tiers)).toBe(true);
    expect(valid(pricesSchemaFor('bulk'), [{ from: 0, amount: 5 }])).toBe(true); // defaults: to null, unit_count 1, pro_rata
    expect(valid(pricesSchemaFor('bps'), [{ from: 0, to: null, percentage: 0.25, per_unit_floor: 10, per_unit_cap: 500, per_unit_fee: null }])).toBe(true);
    expect(valid(pricesSchemaFor('bundle'), [{ amount: 1000, pack_size: 100 }, { amount: 4500, pack_size: 500 }])).toBe(true);
  });

  it('refuse negative or fractional amounts, bad counts, unknown members and rules', () => {
    expect(valid(feePriceSchema, { amount: -1 })).toBe(false);
    expect(valid(feePriceSchema, { amount: 1.5 })).toBe(false);
    expect(valid(feePriceSchema, { amount: 1, currency: 'EUR' })).toBe(false);
    expect(valid(tierSchema, { from: 0, amount: 1, unit_count: 0 })).toBe(false);
    expect(valid(tierSchema, { from: -1, amount: 1 })).toBe(false);
    expect(valid(tierSchema, { from: 0, to: 0, amount: 1 })).toBe(false);
    expect(valid(tierSchema, { from: 0, amount: 1, on_tier_incomplete: 'round_up' })).toBe(false);
    expect(valid(tierSchema, { to: 10, amount: 1 })).toBe(false);
    expect(valid(bpsTierSchema, { from: 0, percentage: 100.01 })).toBe(false);
    expect(valid(bpsTierSchema, { from: 0, percentage: -0.5 })).toBe(false);
    expect(valid(bpsTierSchema, { from: 0, percentage: 1, per_unit_cap: -1 })).toBe(false);
    expect(valid(packSchema, { amount: 1000, pack_size: 0 })).toBe(false);
    expect(valid(packSchema, { amount: 1000 })).toBe(false);
  });

  it('bound the lists: at least one price, one fee, 50 tiers, 20 packs', () => {
    for (const type of PRICE_TYPES) expect(valid(pricesSchemaFor(type), [])).toBe(false);
    expect(valid(pricesSchemaFor('fee'), [{ amount: 1 }, { amount: 2 }])).toBe(false);
    const tiers = (n: number) => Array.from({ length: n }, (_, i) => ({ from: i, to: i === n - 1 ? null : i + 1, amount: 1 }));
    expect(valid(pricesSchemaFor('bulk'), tiers(50))).toBe(true);
    expect(valid(pricesSchemaFor('bulk'), tiers(51))).toBe(false);
    expect(valid(pricesSchemaFor('bundle'), Array.from({ length: 21 }, () => ({ amount: 1, pack_size: 1 })))).toBe(false);
  });
});
