import type { ErrorObject } from 'ajv';
import type { FieldError } from '../errors';
import { FORMAT_NAMES } from '../schemas/formats';

/** Turns ajv errors into `{path, message}` a person can act on: `body.billing_address.country`, not `#/…`. */
export function toFieldErrors(part: 'path' | 'query' | 'body', errors: ErrorObject[]): FieldError[] {
  const seen = new Set<string>();
  const result: (FieldError & { wrongType: boolean })[] = [];
  for (const error of errors) {
    // anyOf (nullable) repeats the branch errors; keep the type error of the first branch and the anyOf summary out.
    if (error.keyword === 'anyOf') continue;
    const field = fieldPath(part, error);
    const message = describe(error);
    const key = `${field}|${message}`;
    if (seen.has(key) || (error.keyword === 'type' && error.params.type === 'null' && seen.has(field))) continue;
    seen.add(key);
    seen.add(field);
    result.push({ path: field, message, wrongType: error.keyword === 'type' });
  }
  // When a branch of an anyOf had the right type and failed on something else (an array too long, a member inside),
  // the other branches' "must be <type>" only hide that: keep what the matching branch said.
  const saidMore = (path: string) => result.some((e) => (e.path === path && !e.wrongType) || e.path.startsWith(`${path}.`));
  return result.filter((e) => !e.wrongType || !saidMore(e.path)).map(({ path, message }) => ({ path, message }));
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
