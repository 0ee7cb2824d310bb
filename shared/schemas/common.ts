import { PATTERNS } from './formats';
import { METADATA_BOUNDS, MIN_MAGNITUDE } from './metadata';
import { COUNTRIES, CURRENCIES, LANGUAGES, PAYMENT_METHOD_TYPES, TIMEZONES } from './value-sets';

/** JSON Schema fragments shared by the request and resource schemas. */
export type Schema = Record<string, unknown>;

export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

export const text = (maxLength = 255, minLength = 0): Schema => ({ type: 'string', minLength, maxLength });
export const name = text(255, 1);
export const email = { type: 'string', maxLength: 320, pattern: PATTERNS.email };
export const uri = { type: 'string', maxLength: 2048, pattern: PATTERNS.uri };
export const dateTime = { type: 'string', pattern: PATTERNS.dateTime };
export const date = { type: 'string', pattern: PATTERNS.date };
export const currency = { type: 'string', enum: CURRENCIES };
export const country = { type: 'string', enum: COUNTRIES };
export const language = { type: 'string', enum: LANGUAGES };
export const timezone = { type: 'string', enum: TIMEZONES };
export const paymentMethodType = { type: 'string', enum: PAYMENT_METHOD_TYPES };
export const days = { type: 'integer', minimum: 0, maximum: 3650 };
/** A percentage or rate: 0–100 with at most 4 decimals (an exact decimal check, see bin/validator-keywords.ts). */
export const percentage = { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.0001 };
/** Free metadata: any JSON object within METADATA_BOUNDS (depth, keys, key length, numbers, size; metadata.ts). */
export const metadata = { type: 'object', 'x-metadata-bounds': METADATA_BOUNDS };
export const id = { type: 'string', minLength: 1, maxLength: 64 };
/**
 * A number of the caller's own (an event's record values): bounded as metadata numbers are, 0 or a magnitude of
 * 1e-130…2^53 − 1, so DynamoDB stores it and JavaScript holds it (`x-min-magnitude`, bin/validator-keywords.ts).
 */
export const freeNumber = { type: 'number', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, 'x-min-magnitude': MIN_MAGNITUDE };

/** Request form of an address: every member optional, `line2`/`state` nullable. */
export const addressInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: nullable(text()),
    line1: nullable(text()),
    line2: nullable(text()),
    city: nullable(text()),
    zip: nullable(text(32)),
    state: nullable(text()),
    country: nullable(country),
  },
};

export const idPath = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id },
};

export const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

/*
 * Response-side fragments. A resource lists every member it always returns in `required` (null when unset); the
 * tests check each response strictly against it (test/support/response-contract.ts): no undocumented member.
 */
export const out = {
  string: { type: 'string' },
  nullableString: { type: ['string', 'null'] },
  integer: { type: 'integer' },
  nullableInteger: { type: ['integer', 'null'] },
  number: { type: 'number' },
  nullableNumber: { type: ['number', 'null'] },
  boolean: { type: 'boolean' },
  dateTime: { type: 'string', description: 'ISO 8601 date-time, UTC.' },
  nullableDateTime: { type: ['string', 'null'], description: 'ISO 8601 date-time, UTC; null when unset.' },
  /** Free-form key/value members (metadata, properties): any JSON object. */
  freeObject: { type: 'object', additionalProperties: true },
  nullableFreeObject: { type: ['object', 'null'], additionalProperties: true },
  stringArray: { type: 'array', items: { type: 'string' } },
  amount: { type: 'integer', description: 'In minor units of the currency.' },
  nullableAmount: { type: ['integer', 'null'], description: 'In minor units of the currency; null when unset.' },
} as const;

export const enumOf = (values: readonly string[], nullable = false): Schema =>
  nullable ? { type: ['string', 'null'], enum: [...values, null] } : { type: 'string', enum: [...values] };

export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });

/** A response object whose members are all always present, except the `optional` ones. */
export const resource = (properties: Record<string, Schema>, optional: string[] = [], description?: string): Schema => ({
  type: 'object',
  ...(description && { description }),
  required: Object.keys(properties).filter((member) => !optional.includes(member)),
  properties,
});

/** A nullable object resource (`{…} | null`). */
export const nullableResource = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** The postal address of a customer, entity or invoice party. */
export const addressResource = resource({
  name: out.nullableString, line1: out.nullableString, line2: out.nullableString, city: out.nullableString, zip: out.nullableString,
  state: out.nullableString, country: out.nullableString,
});

/**
 * `schema` with every member of every nested object listed in `required` (objects that already list theirs are
 * kept), except the members named in `optional`, at any depth.
 */
export function requireAll(schema: Schema, optional: string[] = []): Schema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object' || finished.has(node)) return node;
    const copy = Object.fromEntries(
      Object.entries(node).map(([key, value]) =>
        key === 'properties' ? [key, Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, walk(v)]))] : key === 'enum' || key === 'examples' ? [key, value] : [key, walk(value)],
      ),
    ) as Schema;
    if (copy.properties && !copy.required) copy.required = Object.keys(copy.properties).filter((member) => !optional.includes(member));
    return copy;
  };
  const result = walk(schema) as Schema;
  finished.add(result);
  return result;
}

/** Resources already complete: nested in another one, they are kept as they are (the same object: one component). */
const finished = new WeakSet<object>();
