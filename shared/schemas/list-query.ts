import type { ListFields } from '../db/pagination';
import { PATTERNS } from './formats';
import type { Schema } from './common';

/**
 * The list query language of decisions.md: take/skip plus `field`, `field__not`, `__isNull`, `__isNotNull`,
 * `__equals`, `__contains`, `__startsWith`, `__endWith`/`__endsWith`; enums `__in`/`__notIn`; dates
 * `__lt`/`__lte`/`__gt`/`__gte`. One spec per list gives both its query schema and its filter.
 */
export type FilterSpec = Record<string, { kind: 'string' } | { kind: 'enum'; values: readonly string[] } | { kind: 'date' }>;

const STRING_OPS = ['', '__not', '__equals', '__contains', '__startsWith', '__endWith', '__endsWith'];
const NULL_OPS = ['__isNull', '__isNotNull'];
const ENUM_OPS = ['', '__not', '__equals'];
const ENUM_LIST_OPS = ['__in', '__notIn'];
const DATE_OPS = ['', '__lt', '__lte', '__gt', '__gte'];

/** Integer query parameters are written as decimal integers (bin/validator-keywords.ts), within these bounds. */
export const pagingQuery = {
  take: { type: 'integer', minimum: 0, maximum: 100, default: 50 },
  skip: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 },
};

/** `sort=-created_at` lists newest first; the default, `created_at`, oldest first (offsets stay stable as items are added). */
export const SORT_ORDERS = ['created_at', '-created_at'] as const;
export const sortQuery = { sort: { type: 'string', enum: SORT_ORDERS } };

export function listQuerySchema(spec: FilterSpec, options: { sortable?: boolean } = {}): Schema {
  const properties: Record<string, Schema> = { ...pagingQuery, ...(options.sortable && sortQuery) };
  for (const [field, filter] of Object.entries(spec)) {
    for (const op of NULL_OPS) properties[field + op] = { type: 'boolean' };
    if (filter.kind === 'string') for (const op of STRING_OPS) properties[field + op] = { type: 'string', maxLength: 255 };
    if (filter.kind === 'enum') {
      for (const op of ENUM_OPS) properties[field + op] = { type: 'string', enum: filter.values };
      const one = `(${filter.values.join('|')})`;
      for (const op of ENUM_LIST_OPS) properties[field + op] = { type: 'string', pattern: `^${one}(,${one})*$` };
    }
    if (filter.kind === 'date') for (const op of DATE_OPS) properties[field + op] = { type: 'string', pattern: PATTERNS.dateOrDateTime };
  }
  return { type: 'object', additionalProperties: false, properties };
}

type Test = (value: ListFields[string]) => boolean;

const lower = (v: unknown): string => String(v).toLowerCase();
const asString = (v: ListFields[string]): string | null => (v === null || v === undefined ? null : String(v));

/** Text matches (contains, starts, ends) ignore case; equality is exact. */
const OPERATORS: Record<string, (arg: string) => Test> = {
  '': (arg) => (v) => asString(v) === arg,
  __equals: (arg) => (v) => asString(v) === arg,
  __not: (arg) => (v) => asString(v) !== arg,
  __contains: (arg) => (v) => v != null && lower(v).includes(lower(arg)),
  __startsWith: (arg) => (v) => v != null && lower(v).startsWith(lower(arg)),
  __endWith: (arg) => (v) => v != null && lower(v).endsWith(lower(arg)),
  __endsWith: (arg) => (v) => v != null && lower(v).endsWith(lower(arg)),
  __in: (arg) => (v) => arg.split(',').includes(String(v)),
  __notIn: (arg) => (v) => !arg.split(',').includes(String(v)),
};

/** Dates compare as instants; a bare date means its first millisecond (UTC). */
const DATE_OPERATORS: Record<string, (bound: number, v: number) => boolean> = {
  '': (b, v) => v === b,
  __lt: (b, v) => v < b,
  __lte: (b, v) => v <= b,
  __gt: (b, v) => v > b,
  __gte: (b, v) => v >= b,
};

/** Builds the predicate over an index entry's list fields, or undefined when the query has no filter. */
export function buildFilter(spec: FilterSpec, query: Record<string, unknown>): ((fields: ListFields) => boolean) | undefined {
  const tests: Array<(fields: ListFields) => boolean> = [];
  for (const [param, raw] of Object.entries(query)) {
    if (param === 'take' || param === 'skip' || param === 'sort' || raw === undefined) continue;
    const [field, op] = splitParam(param, spec);
    const filter = spec[field]!;
    if (op === '__isNull' || op === '__isNotNull') {
      const wantNull = (op === '__isNull') === raw;
      tests.push((f) => (f[field] == null) === wantNull);
    } else if (filter.kind === 'date') {
      const bound = Date.parse(String(raw));
      const compare = DATE_OPERATORS[op]!;
      tests.push((f) => f[field] != null && compare(bound, Date.parse(String(f[field]))));
    } else {
      const test = OPERATORS[op]!(String(raw));
      tests.push((f) => test(f[field]));
    }
  }
  return tests.length === 0 ? undefined : (fields) => tests.every((t) => t(fields));
}

function splitParam(param: string, spec: FilterSpec): [string, string] {
  const at = param.indexOf('__');
  const field = at < 0 ? param : param.slice(0, at);
  if (!(field in spec)) throw new Error(`Unknown filter '${param}' passed validation`);
  return [field, at < 0 ? '' : param.slice(at)];
}
