import { appendFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import { routes } from '../../functions/routes';
import { devRoutes } from '../../lib/local/dev-routes';
import { createRouter } from '../../lib/local/router';
import type { Schema } from '../../shared/schemas/common';
import { errorResource, oauthErrorResource } from '../../shared/schemas/errors';

/**
 * Every response an integration test receives is checked against its route's response schema, strictly: an object
 * accepts only its documented members (`additionalProperties: false` wherever the schema does not say otherwise)
 * and every `required` member must be there. 2xx answers use the route's success schema, 4xx/5xx the shared error
 * schema. With `CONTRACT_RECORD=<file>` the violations are appended to the file instead of failing the test.
 */
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
// The development routes too: a test that starts the server with them has their answers checked as well.
const route = createRouter([...routes, ...devRoutes]);
const compiled = new Map<Schema, ValidateFunction>();

/** A copy of `schema` in which every object without an explicit `additionalProperties` accepts no other member. */
export function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, strict(v)])) : key === 'examples' || key === 'enum' || key === 'const' ? value : strict(value);
  }
  const isObject = copy.type === 'object' || (Array.isArray(copy.type) && copy.type.includes('object'));
  if (isObject && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy;
}

const validator = (schema: Schema): ValidateFunction => {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(strict(schema) as Schema)));
  return validate;
};

/** The violations of one response, as readable lines (none when it matches). */
export function responseViolations(method: string, url: string, status: number, contentType: string | null, body: unknown): string[] {
  const path = new URL(url, 'http://x').pathname;
  const match = route(method, path);
  const routeDefinition = match.kind === 'route' ? match.route : undefined;
  if (!routeDefinition && (path === '/health' || path === '/openapi.json')) return [];
  // The OAuth browser routes answer pages (their errors too, before a redirect URI is trusted) and redirects; what the
  // pages say is the OAuth tests' business.
  if (routeDefinition?.response.schema.contentMediaType === 'text/html' && (contentType?.startsWith('text/html') || (status >= 300 && status < 400))) return [];
  let schema: Schema;
  // A hosted page answers in HTML, its refusals too (a 404 or 410 page, the form again with its reason).
  if (routeDefinition?.path.startsWith('/pages/') && contentType?.startsWith('text/html')) return [];
  if (status >= 400) schema = routeDefinition?.errorFormat === 'oauth' && (status === 400 || status === 429) ? oauthErrorResource : errorResource;
  else if (!routeDefinition) return [`${method} ${path} answered ${status} but is no route`];
  else if (status !== routeDefinition.response.status) return [`${routeDefinition.id} answered ${status}, documented ${routeDefinition.response.status}`];
  else if (routeDefinition.response.schema.format === 'binary') {
    const documented = routeDefinition.response.mediaTypes ?? ['application/pdf'];
    return documented.some((type) => contentType?.startsWith(type)) ? [] : [`${routeDefinition.id}: content-type ${contentType}, documented ${documented.join(' or ')}`];
  }
  else if (routeDefinition.response.schema.contentMediaType === 'text/html') return contentType?.startsWith('text/html') ? [] : [`${routeDefinition.id}: not HTML`];
  else schema = routeDefinition.response.schema;
  if (!contentType?.startsWith('application/json')) return [`${method} ${path} ${status}: content-type ${contentType}`];
  const validate = validator(schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${routeDefinition?.id ?? path} ${status} ${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? `: ${e.params.additionalProperty}` : ''}`);
}

/** Throws (or records, see above) when a response breaks its route's documented contract. */
export function assertResponseContract(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
  const violations = responseViolations(method, url, status, contentType, body);
  if (violations.length === 0) return;
  const record = process.env.CONTRACT_RECORD;
  if (record) {
    appendFileSync(record, `${JSON.stringify({ method, url, status, violations, body })}\n`);
    return;
  }
  throw new Error(`Response breaks the documented contract:\n${violations.join('\n')}\n${JSON.stringify(body).slice(0, 2000)}`);
}
