import { makeCtx } from '../../shared/context';
import { EVENT_SOURCE_TYPES, mapChange } from '../../shared/domain/events/map-change';
import { canonicalJson, fingerprint, idempotencyKey, idempotencyKeyOf } from '../../shared/http/idempotency';

const shape = { method: 'POST', routeId: 'createCustomer', path: {}, query: {}, body: { name: 'Jane', tax_ids: [{ value: 'A' }] } };

describe('canonicalJson and fingerprint', () => {
  it('ignores member order at every level, but not array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(fingerprint({ ...shape, body: { tax_ids: [{ value: 'A' }], name: 'Jane' } })).toBe(fingerprint(shape));
    expect(fingerprint({ ...shape, body: { name: 'Jane', tax_ids: [{ value: 'B' }] } })).not.toBe(fingerprint(shape));
  });

  it('tells routes, path parameters and methods apart', () => {
    const base = fingerprint(shape);
    expect(fingerprint({ ...shape, routeId: 'createInvoicingEntity' })).not.toBe(base);
    expect(fingerprint({ ...shape, path: { id: 'cus_1' } })).not.toBe(base);
    expect(fingerprint({ ...shape, method: 'PUT' })).not.toBe(base);
    expect(fingerprint({ ...shape, method: 'post' })).toBe(base);
  });
});

describe('idempotencyKeyOf', () => {
  const post = { method: 'POST' };
  it('reads the header on POST, PUT and PATCH, whatever its case', () => {
    for (const method of ['POST', 'PUT', 'PATCH']) expect(idempotencyKeyOf({ method }, { 'idempotency-key': 'k' })).toBe('k');
    expect(idempotencyKeyOf(post, { 'Idempotency-Key': 'k' })).toBe('k');
    expect(idempotencyKeyOf(post, {})).toBeUndefined();
  });

  it('ignores it on GET and DELETE, even when invalid', () => {
    for (const method of ['GET', 'DELETE']) expect(idempotencyKeyOf({ method }, { 'idempotency-key': '' })).toBeUndefined();
  });

  it('accepts 1 to 255 characters, else a 400', () => {
    expect(idempotencyKeyOf(post, { 'idempotency-key': 'x'.repeat(255) })).toHaveLength(255);
    for (const key of ['', 'x'.repeat(256)]) {
      expect(() => idempotencyKeyOf(post, { 'idempotency-key': key })).toThrow(expect.objectContaining({ status: 400, code: 'invalid_request' }));
    }
  });
});

describe('idempotency records', () => {
  it('sit in the workspace under a bounded key', () => {
    const key = idempotencyKey(makeCtx('ws_1', 'req'), 'é#'.repeat(120));
    expect(key.pk).toMatch(/^WS#ws_1#IDEMPOTENCY#[0-9a-f]{64}$/);
    expect(idempotencyKey(makeCtx('ws_2', 'req'), 'k').pk).not.toBe(idempotencyKey(makeCtx('ws_1', 'req'), 'k').pk);
  });

  it('produce no events, on insert, update or removal (and the stream filter never sees them)', () => {
    const claimed = { pk: 'WS#ws_1#IDEMPOTENCY#ab', sk: 'IDEMPOTENCY', _type: 'idempotency', status: 'in_progress', ttl: 1 };
    const completed = { ...claimed, status: 'completed', response: { status_code: 201, headers: {}, body: '{"id":"cus_1"}' } };
    expect(mapChange(undefined, claimed)).toEqual([]);
    expect(mapChange(claimed, completed)).toEqual([]);
    expect(mapChange(completed, undefined)).toEqual([]);
    expect(EVENT_SOURCE_TYPES).not.toContain('idempotency');
  });
});
