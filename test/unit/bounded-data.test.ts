import fc from 'fast-check';
import { boundData, MAX_DATA_BYTES, MAX_MEMBER_DEPTH } from '../../shared/domain/events/bounded-data';

const nested = (levels: number): unknown => (levels === 0 ? 'leaf' : { next: nested(levels - 1) });
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('boundData', () => {
  it('leaves ordinary data alone (same object, nothing marked)', () => {
    const data = { id: 'cus_1', name: 'Jane', properties: { plan: 'pro', tags: ['a', 'b'] }, deep: nested(MAX_MEMBER_DEPTH) };
    expect(boundData(data)).toEqual({ data });
    expect(boundData(data).data).toBe(data);
  });

  it('omits a member nested deeper than the limit, and says so', () => {
    const bounded = boundData({ id: 'cus_1', name: 'Jane', properties: nested(31), custom_properties: { a: 1 } });
    expect(bounded).toEqual({ data: { id: 'cus_1', name: 'Jane', properties: null, custom_properties: { a: 1 } }, truncated: ['properties'] });
  });

  it('omits the largest members until the JSON fits, never the id', () => {
    const share = (fraction: number) => 'x'.repeat(Math.round(MAX_DATA_BYTES * fraction));
    const bounded = boundData({ id: 'cus_1', name: 'Jane', metadata: { note: share(0.6) }, properties: { note: share(0.55) }, notes: share(0.5) });
    expect(bounded.truncated).toEqual(['metadata', 'properties']);
    expect(bounded.data).toEqual({ id: 'cus_1', name: 'Jane', metadata: null, properties: null, notes: share(0.5) });
  });

  it('always yields data within the size and depth limits when the id itself fits', () => {
    const member = fc.oneof(
      fc.string({ maxLength: 40_000 }),
      fc.integer({ min: 0, max: 40 }).map((levels) => nested(levels)),
      fc.array(fc.string({ maxLength: 20_000 }), { maxLength: 5 }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), member, { maxKeys: 12 }), (members) => {
        const { data, truncated } = boundData({ id: 'cus_1', ...members });
        expect(bytes(data)).toBeLessThanOrEqual(MAX_DATA_BYTES);
        for (const name of truncated ?? []) expect((data as Record<string, unknown>)[name]).toBeNull();
        const depth = (v: unknown): number => (v && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
        for (const value of Object.values(data)) expect(depth(value)).toBeLessThanOrEqual(MAX_MEMBER_DEPTH);
      }),
      { numRuns: 60 },
    );
  });
});
