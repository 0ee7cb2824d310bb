/**
 * The input bounds of docs/decisions.md ("Input bounds"), checked on the generated validators themselves and, for
 * every route of the route table, on the schemas they come from: a route added tomorrow is bounded the day it is added.
 */
import { routes } from '../../functions/routes';
import { InvalidRequest } from '../../shared/errors';
import { validatePart } from '../../shared/http/request-parts';
import { route as createCustomer } from '../../shared/schemas/generated/createCustomer.js';
import { route as createProduct } from '../../shared/schemas/generated/createProduct.js';
import { route as ingestEvent } from '../../shared/schemas/generated/ingestEvent.js';
import { route as listCustomers } from '../../shared/schemas/generated/listCustomers.js';
import { route as listWebhookMessages } from '../../shared/schemas/generated/listWebhookMessages.js';
import type { Schema } from '../../shared/schemas/common';
import { METADATA_BOUNDS, metadataProblem, MIN_MAGNITUDE } from '../../shared/schemas/metadata';

/** The field errors of a validation, or [] when it passes. */
function errorsOf(part: 'query' | 'body', validate: Parameters<typeof validatePart>[1], data: unknown): string[] {
  try {
    validatePart(part, validate, data);
    return [];
  } catch (error) {
    if (!(error instanceof InvalidRequest)) throw error;
    return (error.errors ?? []).map((e) => `${e.path} ${e.message}`);
  }
}

const nest = (levels: number): unknown => (levels === 0 ? 'leaf' : { a: nest(levels - 1) });

describe('integer query parameters', () => {
  it.each(['1e2', '0x10', '+5', ' 5', '5 ', '5.0', 'Infinity', '-Infinity', 'NaN', '', '99999999999999999'])('refuse %j', (written) => {
    expect(errorsOf('query', listCustomers.validate.query, { take: written })).toContain('query.take must be a decimal integer (digits only, at most 16)');
    expect(errorsOf('query', listWebhookMessages.validate.query, { limit: written })[0]).toMatch(/^query\.limit /);
  });

  it('take decimal integers within their bounds, as numbers, and fill defaults', () => {
    const query = { take: '5', skip: '0' };
    expect(errorsOf('query', listCustomers.validate.query, query)).toEqual([]);
    expect(query).toEqual({ take: 5, skip: 0 });
    const defaults = {};
    validatePart('query', listCustomers.validate.query, defaults);
    expect(defaults).toEqual({ take: 50, skip: 0 });
    expect(errorsOf('query', listCustomers.validate.query, { take: '101' })).toEqual(['query.take must be <= 100']);
    expect(errorsOf('query', listCustomers.validate.query, { skip: '-1' })).toEqual(['query.skip must be >= 0']);
    expect(errorsOf('query', listCustomers.validate.query, { skip: '1000000001' })).toEqual(['query.skip must be <= 1000000000']);
  });
});

describe('numbers in bodies', () => {
  it('take percentages with up to 4 decimals, exactly (0.3 is a multiple of 0.0001)', () => {
    for (const rate of [0, 0.3, 5.5, 8.875, 19.6, 12.3456, 100]) {
      expect([rate, errorsOf('body', createCustomer.validate.body, { name: 'C', vat_rate_custom: rate })]).toEqual([rate, []]);
    }
  });

  it('refuse a percentage below 1e-4, with more decimals, beyond 100 or not finite, naming the member and the limit', () => {
    for (const rate of [1e-300, 5e-324, 1e-5, 12.34567, 0.1 + 0.2]) {
      expect(errorsOf('body', createCustomer.validate.body, { name: 'C', vat_rate_custom: rate })).toEqual(['body.vat_rate_custom must have at most 4 decimals']);
    }
    expect(errorsOf('body', createCustomer.validate.body, { name: 'C', vat_rate_custom: 2 ** 53 + 2 })).toEqual(['body.vat_rate_custom must be <= 100']);
    expect(errorsOf('body', createCustomer.validate.body, JSON.parse('{"name":"C","vat_rate_custom":1e400}'))).toEqual(['body.vat_rate_custom must be number']);
  });
});

describe("numbers of the caller's own (an event's record values)", () => {
  const withValue = (value: unknown) =>
    errorsOf('body', ingestEvent.validate.body, { customer_id: 'c', event_type: 'api_call', timestamp: 0, record: { id: 'r', value } });

  it('take 0 and any magnitude from 1e-130 to 2^53 − 1, in arrays too', () => {
    for (const value of [0, -0, 1e-130, -1e-130, 0.1 + 0.2, 12.5, -(2 ** 53 - 1), 2 ** 53 - 1, [1, 2.5, 1e-130]]) {
      expect([value, withValue(value)]).toEqual([value, []]);
    }
  });

  it('refuse what DynamoDB cannot store or JavaScript cannot hold exactly, naming the member', () => {
    for (const value of [1e-300, -1e-131, 5e-324]) expect(withValue(value)).toEqual(['body.record.value must be 0 or at least 1e-130 in magnitude']);
    for (const value of [1e200, 2 ** 53]) expect(withValue(value)).toEqual(['body.record.value must be <= 9007199254740991']);
    expect(withValue(-1e200)).toEqual(['body.record.value must be >= -9007199254740991']);
    expect(withValue([1, 1e-300])).toEqual(['body.record.value.1 must be 0 or at least 1e-130 in magnitude']);
  });
});

describe('free metadata', () => {
  const withProperties = (properties: unknown) => errorsOf('body', createCustomer.validate.body, { name: 'C', properties });

  it('takes any JSON within the bounds', () => {
    expect(withProperties({ plan: 'gold', seats: 12, ratio: 0.25, tags: ['a', 'b'], none: null })).toEqual([]);
    expect(withProperties(nest(METADATA_BOUNDS.maxDepth))).toEqual([]);
    expect(metadataProblem(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(300)])))).toBeUndefined();
  });

  it.each([
    ['nested 9 levels', nest(METADATA_BOUNDS.maxDepth + 1), 'nests deeper than 8 levels (at a.a.a.a.a.a.a.a)'],
    ['nested 40 levels', nest(40), 'nests deeper than 8 levels (at a.a.a.a.a.a.a.a)'],
    ['an empty key', { ok: { '': 1 } }, 'has an empty key (at ok)'],
    ['a __proto__ key', JSON.parse('{"__proto__":{"admin":true}}'), "has the reserved key '__proto__'"],
    ['a long key', { ['k'.repeat(101)]: 1 }, 'has a key longer than 100 characters'],
    ['51 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])), 'has an object of more than 50 keys'],
    ['101 items', { list: Array.from({ length: 101 }, () => 1) }, 'has an array of more than 100 items (at list)'],
    ['a number past 2^53', { n: 2 ** 53 }, 'holds a number beyond ±(2^53 − 1) (at n)'],
    ['an infinite number', JSON.parse('{"n":[1e400]}'), 'holds a number beyond ±(2^53 − 1) (at n[0])'],
    ['a number below 1e-130', { n: -1e-200 }, 'holds a number closer to 0 than 1e-130 (at n)'],
    ['over 16 KB', { text: 'x'.repeat(16_384) }, 'is 16395 bytes as JSON; metadata holds at most 16384'],
  ])('refuses %s, naming the member, the limit and where', (_, value, problem) => {
    expect(withProperties(value)).toEqual([`body.properties ${problem}`]);
  });

  it('bounds every metadata member the same way (translations, accounting, custom_properties)', () => {
    for (const member of ['translations', 'accounting', 'custom_properties']) {
      expect(errorsOf('body', createProduct.validate.body, { name: 'P', type: 'flat_fee', [member]: { '': 1 } })).toEqual([`body.${member} has an empty key`]);
    }
  });
});

/** Every schema node of a route's request, with its location. */
function* nodes(schema: unknown, at: string): Generator<[string, Schema]> {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Schema;
  yield [at, node];
  for (const [name, member] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) yield* nodes(member, `${at}.${name}`);
  if (node.items) yield* nodes(node.items, `${at}[]`);
  // The members a schema does not name (an event's record properties) are bounded like the named ones.
  if (typeof node.additionalProperties === 'object') yield* nodes(node.additionalProperties, `${at}.*`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of (node[key] ?? []) as Schema[]) yield* nodes(branch, at);
}

const typesOf = (node: Schema) => [node.type].flat() as string[];

describe('every request schema of the route table', () => {
  const all = routes.flatMap((route) => (['path', 'query', 'body'] as const).flatMap((part) => [...nodes(route.request[part], `${route.id} ${part}`)]));

  it('bounds every number within ±(2^53 − 1), and every fraction to a decimal step or, if free, away from 0 as DynamoDB does', () => {
    for (const [at, node] of all.filter(([, n]) => typesOf(n).some((t) => t === 'integer' || t === 'number'))) {
      const low = (node.minimum ?? node.exclusiveMinimum) as number | undefined;
      const high = (node.maximum ?? node.exclusiveMaximum) as number | undefined;
      const bounded = low !== undefined && high !== undefined && low >= -Number.MAX_SAFE_INTEGER && high <= Number.MAX_SAFE_INTEGER;
      expect([at, bounded]).toEqual([at, true]);
      if (typesOf(node).includes('number')) {
        const step = node.multipleOf !== undefined ? { multipleOf: node.multipleOf } : { 'x-min-magnitude': node['x-min-magnitude'] };
        expect([at, step]).toEqual([at, node.multipleOf !== undefined ? { multipleOf: expect.any(Number) } : { 'x-min-magnitude': MIN_MAGNITUDE }]);
      }
    }
  });

  it('bounds every free-form object as metadata', () => {
    for (const [at, node] of all.filter(([, n]) => typesOf(n).includes('object') && !n.properties && n.additionalProperties === undefined)) {
      expect([at, node['x-metadata-bounds']]).toEqual([at, METADATA_BOUNDS]);
    }
  });
});
