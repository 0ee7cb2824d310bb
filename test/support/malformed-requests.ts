/**
 * Malformed requests for any route of the route table, derived from its request schemas and a valid body: each one is
 * wrong by construction (by the rules of docs/decisions.md, not by asking the validators), so each is due a 4xx.
 * `fixedVariants` enumerates the known kinds once per route; `randomVariants` draws more with fast-check.
 */
import fc from 'fast-check';
import type { RouteDefinition } from '../../functions/routes';
import type { Schema } from '../../shared/schemas/common';

export interface Malformed {
  kind: string;
  method: string;
  /** Path with its parameters filled, percent-encoded (or deliberately not). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status due: 400, 413 or 415. */
  expect: number;
  /** Sent without a bearer token (malformed paths are refused before authentication). */
  anonymous?: boolean;
}

/** What the fuzzer knows of one route: its table entry, ids for its path and a valid body. */
export interface Target {
  route: RouteDefinition;
  params: Record<string, string>;
  validBody?: Record<string, unknown>;
}

type Json = unknown;

/** JSON cannot say ±Infinity: these markers are written as `1e400` / `-1e400` in the raw body. */
const INFINITY = '\u0000+1e400';
const MINUS_INFINITY = '\u0000-1e400';
const toJson = (value: Json) => JSON.stringify(value).replaceAll(`"\\u0000+1e400"`, '1e400').replaceAll(`"\\u0000-1e400"`, '-1e400');

const fill = (route: RouteDefinition, params: Record<string, string>, override: Record<string, string> = {}) =>
  route.path.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? encodeURIComponent(params[name] ?? 'id_unknown'));

const JSON_TYPES = ['string', 'number', 'boolean', 'null', 'array', 'object'] as const;
const jsonType = (value: Json): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'string' && value.startsWith('\u0000') ? 'number' : typeof value;

/** The branches a value may match (anyOf/oneOf flattened). */
const branches = (node: Schema): Schema[] => [...((node.anyOf ?? node.oneOf ?? [node]) as Schema[])].flatMap((b) => (b.anyOf || b.oneOf ? branches(b) : [b]));

/** JSON types a schema node allows; undefined when a branch names none (anything goes). */
function allowedTypes(node: Schema): Set<string> | undefined {
  const types = new Set<string>();
  for (const branch of branches(node)) {
    if (branch.type === undefined) return undefined;
    for (const type of [branch.type].flat() as string[]) types.add(type === 'integer' ? 'number' : type);
  }
  return types;
}

const isMetadata = (node: Schema) => branches(node).some((b) => b['x-metadata-bounds'] !== undefined);
const isFreeObject = (node: Schema) => branches(node).some((b) => [b.type].flat().includes('object') && !b.properties);

/** The schema nodes a path of the body may be validated against; undefined below free-form objects or when unknown. */
function nodesAt(schema: Schema, path: (string | number)[]): Schema[] | undefined {
  let nodes = [schema];
  for (const step of path) {
    const next: Schema[] = [];
    for (const node of nodes) {
      if (isFreeObject(node)) return undefined;
      for (const branch of branches(node)) {
        const child = typeof step === 'number' ? (branch.items as Schema | undefined) : (branch.properties as Record<string, Schema> | undefined)?.[step];
        if (child) next.push(child);
      }
    }
    if (next.length === 0) return undefined;
    nodes = next;
  }
  return nodes;
}

/** A value of another JSON type than any the nodes allow, or undefined when they may take anything. */
const wrongValues = (nodes: Schema[]): Json[] => {
  const allowed = nodes.map(allowedTypes);
  if (allowed.some((a) => a === undefined)) return [];
  const samples: Record<string, Json> = { string: 'not-the-right-type', number: 12345, boolean: true, null: null, array: [1], object: { x: 1 } };
  return JSON_TYPES.filter((t) => allowed.every((a) => !a!.has(t))).map((t) => samples[t]);
};

/** Every leaf (number, string, boolean) of a value, with its path. */
function* leaves(value: Json, path: (string | number)[] = []): Generator<[(string | number)[], Json]> {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* leaves(item, [...path, i]);
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) yield* leaves(item, [...path, key]);
  else yield [path, value];
}

function setAt(value: Json, path: (string | number)[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), replacement);
  return copy;
}

/**
 * Numbers no request member takes: past 2^53 (every bound is below, test/unit/input-bounds.test.ts), non-zero
 * closer to 0 than 1e-131 (neither whole nor a decimal step), not finite.
 */
const EXTREME_NUMBERS: Json[] = [2 ** 53 + 2, 1e300, -1e300, 1e-300, -5e-324, INFINITY, MINUS_INFINITY];

const nest = (levels: number, leaf: Json = 'leaf'): Json => (levels === 0 ? leaf : { a: nest(levels - 1, leaf) });

/** Metadata every member refuses (shared/schemas/metadata.ts): too deep, odd keys, numbers out of range, too large. */
const BAD_METADATA: Array<[string, Json]> = [
  ['nested 9 levels', nest(9)],
  ['nested 40 levels', nest(40)],
  ['an empty key', { '': 'v' }],
  ['an empty nested key', { a: { b: { '': 1 } } }],
  ['a __proto__ key', JSON.parse('{"__proto__":{"admin":true}}')],
  ['a nested __proto__ key', JSON.parse('{"a":[{"__proto__":1}]}')],
  ['a 101-character key', { ['k'.repeat(101)]: 1 }],
  ['51 keys', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))],
  ['101 items', { list: Array.from({ length: 101 }, (_, i) => i) }],
  ['a number past 2^53', { n: 2 ** 53 + 2 }],
  ['1e400', { n: INFINITY }],
  ['1e-300', { n: 1e-300 }],
  ['over 16 KB', { text: 'x'.repeat(17_000) }],
  ['over 400 KB', Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'y'.repeat(12_000)]))],
];

const MALFORMED_JSON = ['{', '{"a":', 'nul', '{"a":1,}', "{'a':1}", '{"a":1}}', '\u0000', '{"a":"\\x"}'];
const NOT_OBJECTS = ['[]', '"text"', '12', 'true', 'null'];
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/json-seq',
  'application/jsonx',
  'application/x-www-form-urlencoded',
  'application/merge-patch+json',
  'application/json; charset=latin1',
  'multipart/form-data; boundary=x',
];
/** Not percent-encoded UTF-8: bad hex, a lone `%`, overlong, truncated, a surrogate, a lone continuation byte. */
const MALFORMED_SEGMENTS = ['%ZZ', '%C0%AF', '%', 'ok%2', '%E0%A4', '%ED%A0%80', '%80'];
const BAD_INTEGERS = ['1e2', '0x10', '+5', ' 5', '5 ', '5.0', '1.5', 'Infinity', '-Infinity', 'NaN', '', 'ten', '99999999999999999999'];

function queryMembers(route: RouteDefinition): Array<[string, Schema]> {
  return Object.entries((route.request.query?.properties ?? {}) as Record<string, Schema>);
}

/** Values a query parameter refuses, by its schema: not a decimal integer, out of bounds, not an enum value, too long. */
function badQueryValues(member: Schema): string[] {
  const type = [member.type].flat()[0];
  if (type === 'integer') {
    const values = [...BAD_INTEGERS];
    if (typeof member.maximum === 'number') values.push(String(member.maximum + 1));
    if (typeof member.minimum === 'number') values.push(String(member.minimum - 1));
    return values;
  }
  if (type === 'boolean') return ['maybe', 'yes', '1', 'TRUE '];
  if (member.enum) return ['zz_not_a_value'];
  if (member.pattern) return ['not a date, nor a list!'];
  if (typeof member.maxLength === 'number') return ['q'.repeat(member.maxLength + 1)];
  return [];
}

const queryString = (params: Record<string, string>) =>
  Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/** A request of the route with a valid body (if it takes one), changed by `change`. */
function request(target: Target, kind: string, expect: number, change: Partial<Malformed> & { query?: string } = {}): Malformed {
  const { route, params, validBody } = target;
  const hasBody = route.request.body !== undefined;
  const { query, ...rest } = change;
  const path = rest.path ?? fill(route, params);
  return {
    kind,
    method: route.method,
    headers: hasBody ? { 'content-type': 'application/json' } : {},
    body: hasBody ? toJson(validBody ?? {}) : undefined,
    expect,
    ...rest,
    path: query === undefined ? path : `${path}?${query}`,
  };
}

const withBody = (target: Target, kind: string, body: Json | string, raw = false) =>
  request(target, kind, 400, { body: raw ? (body as string) : toJson(body) });

export function fixedVariants(target: Target): Malformed[] {
  const { route, params, validBody } = target;
  const out: Malformed[] = [];
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  for (const [i, name] of names.entries()) {
    for (const segment of MALFORMED_SEGMENTS) out.push(request(target, `path ${name} ${segment}`, 400, { path: fill(route, params, { [name]: segment }) }));
    // Refused before authentication: a few without a token suffice (random variants send more).
    if (i === 0) for (const segment of MALFORMED_SEGMENTS.slice(0, 3)) {
      out.push({ ...request(target, `path ${name} ${segment} (no token)`, 400, { path: fill(route, params, { [name]: segment }) }), anonymous: true });
    }
    const maxLength = ((route.request.path?.properties as Record<string, Schema>)?.[name]?.maxLength ?? undefined) as number | undefined;
    if (maxLength) out.push(request(target, `path ${name} too long`, 400, { path: fill(route, params, { [name]: 'x'.repeat(maxLength + 1) }) }));
  }

  const members = queryMembers(route);
  out.push(request(target, 'unknown query parameter', 400, { query: 'zz_unknown=1' }));
  for (const [name, member] of members) {
    for (const value of badQueryValues(member)) out.push(request(target, `query ${name}=${JSON.stringify(value)}`, 400, { query: queryString({ [name]: value }) }));
  }

  const schema = route.request.body;
  if (!schema) return out;
  const valid = (validBody ?? {}) as Record<string, Json>;
  for (const text of MALFORMED_JSON) out.push(withBody(target, `malformed JSON ${JSON.stringify(text)}`, text, true));
  for (const text of NOT_OBJECTS) out.push(withBody(target, `body ${text}`, text, true));
  // A public route also takes HTML forms (shared/http/public-handler.ts): a JSON text sent as a form is a form's 400.
  const accepted = (type: string) => route.scope === 'public' && type === 'application/x-www-form-urlencoded';
  for (const type of WRONG_CONTENT_TYPES.filter((t) => !accepted(t))) out.push(request(target, `content-type ${type}`, 415, { headers: { 'content-type': type } }));
  out.push(request(target, 'body over 1 MiB', 413, { body: toJson({ ...valid, padding: 'p'.repeat(1024 * 1024) }) }));
  if (schema.additionalProperties === false) out.push(withBody(target, 'unknown member', { ...valid, zz_unknown: 1 }));
  for (const name of (schema.required ?? []) as string[]) {
    const { [name]: _, ...rest } = valid;
    out.push(withBody(target, `missing ${name}`, rest));
  }
  for (const [name, member] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    for (const value of wrongValues([member])) out.push(withBody(target, `${name} as ${jsonType(value)}`, { ...valid, [name]: value }));
    if (isMetadata(member)) for (const [label, value] of BAD_METADATA) out.push(withBody(target, `${name} with ${label}`, { ...valid, [name]: value }));
    const types = allowedTypes(member);
    if (types?.has('number') && !types.has('string') && !isMetadata(member)) for (const value of EXTREME_NUMBERS) out.push(withBody(target, `${name} = ${String(value)}`, { ...valid, [name]: value }));
  }
  for (const [path, value] of leaves(valid)) {
    const nodes = nodesAt(schema, path);
    if (!nodes || path.length < 2) continue; // top-level members are covered above
    const label = path.join('.');
    const onlyNumbers = nodes.every((n) => allowedTypes(n) !== undefined && !allowedTypes(n)!.has('string'));
    if (typeof value === 'number' && onlyNumbers) for (const extreme of EXTREME_NUMBERS) out.push(withBody(target, `${label} = ${String(extreme)}`, setAt(valid, path, extreme)));
    for (const wrong of wrongValues(nodes)) out.push(withBody(target, `${label} as ${jsonType(wrong)}`, setAt(valid, path, wrong)));
  }
  return out;
}

/** Random variants of the same kinds: odd strings as integers, random extreme numbers, random bad metadata and bytes. */
export function randomVariants(target: Target): fc.Arbitrary<Malformed> {
  const { route, params, validBody } = target;
  const valid = (validBody ?? {}) as Record<string, Json>;
  const families: fc.Arbitrary<Malformed>[] = [];
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (names.length > 0) {
    // A byte of 0x80–0xFF alone is never UTF-8; a `%` not followed by two hex digits is never an escape.
    const badByte = fc.integer({ min: 0x80, max: 0xff }).map((b) => `%${b.toString(16).toUpperCase()}`);
    const badEscape = fc.tuple(fc.constantFrom(...'GHXZ%g'), fc.constantFrom(...'0123456789AZ')).map(([a, b]) => `%${a}${b}`);
    families.push(
      fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 8 }).map(encodeURIComponent), fc.oneof(badByte, badEscape), fc.boolean()).map(([name, prefix, bad, anonymous]) => ({
        ...request(target, `path ${name} ${prefix}${bad}`, 400, { path: fill(route, params, { [name]: `${prefix}${bad}` }) }),
        anonymous,
      })),
    );
  }
  const integers = queryMembers(route).filter(([, m]) => [m.type].flat()[0] === 'integer');
  if (integers.length > 0) {
    const notDecimal = fc.string({ maxLength: 12 }).filter((s) => !/^-?[0-9]+$/.test(s));
    families.push(
      fc.tuple(fc.constantFrom(...integers.map(([n]) => n)), notDecimal).map(([name, value]) =>
        request(target, `query ${name}=${JSON.stringify(value)}`, 400, { query: queryString({ [name]: value }) }),
      ),
    );
  }
  if (!route.request.query) {
    families.push(fc.string({ minLength: 1, maxLength: 10 }).map((name) => request(target, `undeclared query ${name}`, 400, { query: queryString({ [name]: '1' }) })));
  }
  const schema = route.request.body;
  if (schema) {
    const members = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
    const extreme = fc.oneof(
      fc.double({ min: 2 ** 53 + 2, max: Number.MAX_VALUE, noNaN: true }),
      fc.double({ min: -Number.MAX_VALUE, max: -(2 ** 53 + 2), noNaN: true }),
      fc.double({ min: -1e-131, max: 1e-131, noNaN: true }).filter((x) => x !== 0),
    );
    const numericLeaves = [...leaves(valid)].filter(([path, value]) => {
      const nodes = typeof value === 'number' ? nodesAt(schema, path) : undefined;
      return nodes?.every((n) => allowedTypes(n) !== undefined && !allowedTypes(n)!.has('string'));
    });
    if (numericLeaves.length > 0) {
      families.push(
        fc.tuple(fc.constantFrom(...numericLeaves.map(([p]) => p)), extreme).map(([path, x]) => withBody(target, `${path.join('.')} = ${x}`, setAt(valid, path, x))),
      );
    }
    const typed = members.filter(([, m]) => wrongValues([m]).length > 0);
    if (typed.length > 0) {
      const anyJson = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ minLength: 1 }), fc.integer(), { maxKeys: 3 }));
      families.push(
        fc.tuple(fc.constantFrom(...typed), anyJson)
          .filter(([[, m], v]) => !allowedTypes(m)!.has(jsonType(v)))
          .map(([[name], v]) => withBody(target, `${name} as ${jsonType(v)}`, { ...valid, [name]: v })),
      );
    }
    const metadata = members.filter(([, m]) => isMetadata(m)).map(([n]) => n);
    if (metadata.length > 0) {
      const key = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== '__proto__');
      const bad = fc.oneof(
        fc.integer({ min: 9, max: 40 }).map((depth) => nest(depth)),
        fc.tuple(fc.integer({ min: 0, max: 7 }), fc.constantFrom('', '__proto__')).map(([depth, k]) => JSON.parse(toJson(nest(depth, { [k]: 1 })))),
        fc.tuple(fc.integer({ min: 0, max: 7 }), extreme).map(([depth, x]) => nest(depth, x)),
        fc.integer({ min: 101, max: 300 }).map((n) => ({ ['k'.repeat(n)]: 1 })),
        fc.integer({ min: 51, max: 120 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
        fc.tuple(key, fc.integer({ min: 16_400, max: 200_000 })).map(([k, n]) => ({ [k]: 's'.repeat(n) })),
      );
      families.push(fc.tuple(fc.constantFrom(...metadata), bad).map(([name, value]) => withBody(target, `${name} with random bad metadata`, { ...valid, [name]: value })));
    }
    families.push(
      fc.string({ minLength: 1, maxLength: 40 })
        .filter((text) => { try { JSON.parse(text); return false; } catch { return true; } })
        .map((text) => withBody(target, `malformed JSON ${JSON.stringify(text)}`, text, true)),
    );
  }
  return fc.oneof(...families);
}

/**
 * Well-formed requests at the edges of the schemas: every numeric member (top level, or a leaf of the valid body) at
 * its minimum and at its maximum. They may be accepted or refused by a business rule, never answered with a 5xx.
 */
export function extremeVariants(target: Target): Malformed[] {
  const schema = target.route.request.body;
  if (!schema) return [];
  const valid = (target.validBody ?? {}) as Record<string, Json>;
  const paths: Array<(string | number)[]> = [
    ...Object.keys((schema.properties ?? {}) as object).map((name) => [name]),
    ...[...leaves(valid)].filter(([path, value]) => path.length > 1 && typeof value === 'number').map(([path]) => path),
  ];
  const out: Malformed[] = [];
  for (const path of paths) {
    const bounds = (nodesAt(schema, path) ?? []).flatMap(branches).flatMap((b) => [b.minimum, b.exclusiveMinimum, b.maximum, b.exclusiveMaximum]);
    for (const bound of new Set(bounds.filter((b): b is number => typeof b === 'number'))) {
      out.push({ ...withBody(target, `${path.join('.')} = ${bound}`, setAt(valid, path, bound)), expect: 0 });
    }
  }
  return out;
}
