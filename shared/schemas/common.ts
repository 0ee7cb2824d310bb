import { PATTERNS } from './formats';
import { METADATA_BOUNDS } from './metadata';
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
