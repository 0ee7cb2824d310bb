/**
 * What the precompiled validators add to plain JSON Schema (docs/decisions.md, "Input bounds"):
 * - `multipleOf` is exact for decimal steps: ajv divides floats (0.3 / 0.0001 is not whole), so a step 10^-n is
 *   checked on the decimal form instead (`x.toFixed(n)` gives back `x`), which also refuses 1e-300 as a percentage;
 * - `x-metadata-bounds` bounds free metadata (depth, keys, key length, numbers, size) through `metadataProblem`;
 * - `x-min-magnitude` refuses a non-zero number closer to 0 than it (what DynamoDB cannot store, 1e-300);
 * - integer query parameters must be written as decimal integers before ajv coerces them.
 */
import { _, str, stringify, type CodeKeywordDefinition, type KeywordCxt } from 'ajv';
import type { Schema } from '../shared/schemas/common';
import { PATTERNS } from '../shared/schemas/formats';
import { metadataProblem } from '../shared/schemas/metadata';

/** Decimals of a step 10^-n (0 for a whole step); any other step is refused when the validators are generated. */
function decimalsOf(step: number): number {
  if (Number.isSafeInteger(step) && step > 0) return 0;
  const decimals = Math.round(-Math.log10(step));
  if (decimals > 0 && decimals <= 20 && step === Number(`1e-${decimals}`)) return decimals;
  throw new Error(`multipleOf ${step}: only whole steps and steps 10^-n are supported`);
}

const exactMultipleOf: CodeKeywordDefinition = {
  keyword: 'multipleOf',
  type: 'number',
  schemaType: 'number',
  error: {
    message: ({ schema }) => (decimalsOf(schema) > 0 ? str`must have at most ${String(decimalsOf(schema))} decimals` : str`must be a multiple of ${String(schema)}`),
    params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { data, schema } = cxt;
    const decimals = decimalsOf(schema as number);
    cxt.fail(decimals === 0 ? _`${data} % ${schema as number} !== 0` : _`Number(${data}.toFixed(${decimals})) !== ${data}`);
  },
};

const metadataBounds: CodeKeywordDefinition = {
  keyword: 'x-metadata-bounds',
  type: 'object',
  schemaType: 'object',
  error: {
    message: ({ params }) => _`${params.problem}`,
    params: ({ params }) => _`{problem: ${params.problem}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    const check = gen.scopeValue('func', { ref: metadataProblem, code: _`require("metadata").metadataProblem` });
    const problem = gen.const('problem', _`${check}(${data}, ${stringify(schema)})`);
    cxt.setParams({ problem });
    cxt.fail(_`${problem} !== undefined`);
  },
};

const minMagnitude: CodeKeywordDefinition = {
  keyword: 'x-min-magnitude',
  type: 'number',
  schemaType: 'number',
  error: {
    message: ({ schema }) => str`must be 0 or at least ${String(schema)} in magnitude`,
    params: ({ schemaCode }) => _`{minMagnitude: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { data, schema } = cxt;
    cxt.fail(_`${data} !== 0 && Math.abs(${data}) < ${schema as number}`);
  },
};

export const keywords = [exactMultipleOf, metadataBounds, minMagnitude];

const isInteger = (schema: Schema) => schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));

/**
 * A query schema whose integer parameters are first checked as written (`^-?[0-9]{1,16}$`, so `1e2`, `0x10`, `+5`,
 * ` 5` and `Infinity` are refused), then coerced and bounded by the schema itself.
 */
export function strictIntegerQuery(schema: Schema): Schema {
  const integers = Object.entries((schema.properties ?? {}) as Record<string, Schema>).filter(([, member]) => isInteger(member));
  if (integers.length === 0) return schema;
  const asWritten = { type: 'string', pattern: PATTERNS.decimalInteger };
  return { allOf: [{ type: 'object', properties: Object.fromEntries(integers.map(([name]) => [name, asWritten])) }, schema] };
}
