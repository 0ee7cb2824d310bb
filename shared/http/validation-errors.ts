import type { ErrorObject } from 'ajv';
import type { FieldError } from '../errors';
import { FORMAT_NAMES } from '../schemas/formats';

/** Turns ajv errors into `{path, message}` a person can act on: `body.billing_address.country`, not `#/…`. */
export function toFieldErrors(part: 'path' | 'query' | 'body', errors: ErrorObject[]): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const error of errors) {
    // anyOf (nullable) repeats the branch errors; keep the type error of the first branch and the anyOf summary out.
    if (error.keyword === 'anyOf') continue;
    const field = fieldPath(part, error);
    const message = describe(error);
    const key = `${field}|${message}`;
    if (seen.has(key) || (error.keyword === 'type' && error.params.type === 'null' && seen.has(field))) continue;
    seen.add(key);
    seen.add(field);
    result.push({ path: field, message });
  }
  return result;
}

function fieldPath(part: string, error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  return [part, ...segments].join('.');
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'additionalProperties':
      return 'is not a known member';
    case 'required':
      return 'is required';
    case 'pattern':
      return `must be ${FORMAT_NAMES[String(error.params.pattern)] ?? `of the form ${error.params.pattern}`}`;
    case 'enum': {
      const allowed = error.params.allowedValues as unknown[];
      return allowed.length > 12 ? 'is not one of the allowed values' : `must be one of: ${allowed.join(', ')}`;
    }
    case 'type':
      return `must be ${String(error.params.type).replace(',', ' or ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}
