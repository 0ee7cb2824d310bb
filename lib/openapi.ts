import { routes, type RouteDefinition } from '../functions/routes';
import type { Schema } from '../shared/schemas/common';
import { schemaComponents } from '../shared/schemas/components';
import { MAX_KEY_LENGTH } from '../shared/http/idempotency';
import { OAUTH_RATE_LIMITED_ROUTES } from '../shared/http/rate-limit-settings';

/**
 * The OpenAPI 3.1 document, generated from the route table (served locally at /openapi.json, printed by
 * `npm run openapi`, rendered as docs/api.md by `npm run docs:api`). Resources are named components; every
 * operation lists its error responses, the headers it reads and the headers it answers with.
 */
export function openApiDocument(serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Billing API',
      version: '1.0.0',
      description: INFO_DESCRIPTION,
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
      contact: { name: 'Billing API maintainers' },
    },
    servers: [{ url: serverUrl ?? 'http://127.0.0.1:3000', description: serverUrl ? 'This server' : 'npm start' }],
    security: [{ bearer: [] }],
    tags: usedTags().map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An API key (`sk_…`) or an access token with the `workspace_id` and `scope` (`read`, `write`, `admin`) claims.' },
      },
      schemas: Object.fromEntries(Object.entries(schemaComponents).map(([name, schema]) => [name, withRefs(schema, schema)])),
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: Object.fromEntries(Object.entries(ERRORS).map(([status, [name, description]]) => [name, errorResponse(status, description)])),
    },
  };
}

const INFO_DESCRIPTION = [
  'Recurring and one-off billing: invoicing entities, customers, catalog and prices, quotes, subscriptions, invoices and credit notes, wallets, credits, promotion codes and webhooks.',
  '',
  'Every request carries a bearer credential: an API key (`sk_…`) or an access token (JWT). GET routes need the `read` scope, the others `write`, API keys `admin`; discovery and OAuth endpoints are public. Amounts are integers in the minor unit of their currency.',
  'Errors are `{message, code, errors?, request_id}` (`Error`). Lists answer `{meta: {total, taken, skipped}, data}` and take `take`, `skip`, `order_by` and filters.',
  'A POST, PUT or PATCH with an `Idempotency-Key` header runs at most once per key within 24 h; a replay answers the stored response with `Idempotent-Replayed: true`.',
].join('\n');

const TAGS: Record<string, string> = {
  'Invoicing entities': 'The legal entities that issue invoices: name, address, currency, numbering.',
  Customers: 'Who is billed: contact, addresses, tax identity, currency, invoicing entity.',
  'Payment methods': "A customer's saved cards and mandates (tokenized by the sandbox payment provider).",
  Products: 'The catalog: fees, seats, usage and credit products, with their price configurations.',
  Prices: 'Price configurations (flat, volume, tiered, bundle…), price books and price simulation.',
  Aggregators: 'Usage metering: which events count, and how (count, sum, max, unique count, latest), for usage-priced and credit products.',
  Coupons: 'Discounts (percentage or amount, once, for some periods or forever) applied to invoices and subscriptions.',
  'Promotion codes': 'Customer-facing codes that apply a coupon, with redemption limits.',
  Quotes: 'Quotes from draft to signature; signing creates or changes a subscription or issues an invoice.',
  Subscriptions: 'Recurring billing started by signed quotes, invoiced once per period.',
  Invoices: 'Invoices, credit notes and documents: lifecycle, payments, charges, credit notes and the PDF.',
  Wallets: 'Prepaid wallets with a ledger, used to pay invoices.',
  Credits: 'Per-product credit balances: top-ups, usage and their transactions.',
  Exports: 'Accounting journals (CSV, FEC, DATEV) and the data as Parquet, made in the background and downloaded (docs/accounting.md).',
  Webhooks: 'Webhook endpoints, the message history and delivery attempts (Standard Webhooks signatures).',
  OAuth: 'The service as an OAuth 2.1 authorization server: discovery, registration (RFC 7591), tokens and their signing keys.',
  MCP: 'The Model Context Protocol server: the API as tools for agents (docs/mcp.md).',
  'API keys': 'Secret keys (`sk_…`) used directly as bearer credentials; managing them needs the `admin` scope.',
};

const usedTags = () => [...new Set(routes.map((route) => route.tag))];

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const componentNames = new Map<Schema, string>(Object.entries(schemaComponents).map(([name, schema]) => [schema, name]));

/** A copy of `schema` in which each named resource (other than `self`, the one being defined) is a `$ref`. */
function withRefs(schema: unknown, self?: Schema): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withRefs(item));
  if (!schema || typeof schema !== 'object') return schema;
  const name = componentNames.get(schema as Schema);
  if (name && schema !== self) return ref('schemas', name);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === 'examples' || key === 'enum' ? value : withRefs(value)]));
}

const rateLimitHeaders = {
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
};

const HEADERS = {
  'X-Request-Id': { description: "The request's id (the one you sent in `X-Request-Id`, else a new one); also `request_id` in error bodies.", schema: { type: 'string' } },
  'Idempotent-Replayed': { description: '`true` when this is the stored response of an earlier request with the same `Idempotency-Key`.', schema: { type: 'string', enum: ['true'] } },
  'X-RateLimit-Limit': { description: 'Requests allowed per window for this workspace.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  'X-Content-Type-Options': { description: 'Always `nosniff`.', schema: { type: 'string', enum: ['nosniff'] } },
  'Cache-Control': { description: 'Always `no-store`: answers carry account data.', schema: { type: 'string' } },
};

const PARAMETERS = {
  IdempotencyKey: {
    name: 'Idempotency-Key', in: 'header', required: false,
    description: 'Makes a retry safe: the same key and request within 24 h answer the stored response (with `Idempotent-Replayed: true`); the same key with another request answers 422, and while the first request still runs 409.',
    schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH },
  },
  RequestId: {
    name: 'X-Request-Id', in: 'header', required: false,
    description: 'Your id for this request, echoed in the `X-Request-Id` response header.',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  },
};

/** The error responses by status: component name and meaning. */
const ERRORS: Record<string, [string, string]> = {
  400: ['BadRequest', 'Invalid input: `errors` names each member at fault. Nothing was changed.'],
  401: ['Unauthorized', 'Missing, expired, revoked or invalid credential. `WWW-Authenticate` names the resource metadata (RFC 9728).'],
  403: ['Forbidden', 'The credential lacks the scope of this route (`read`, `write` or `admin`) or a workspace.'],
  404: ['NotFound', 'No such resource in this workspace.'],
  409: ['Conflict', 'The resource is not in a state that allows this (or an idempotent request with this key is still running).'],
  413: ['PayloadTooLarge', 'The body is larger than 1 MiB.'],
  415: ['UnsupportedMediaType', 'The body is not declared `application/json`.'],
  422: ['UnprocessableEntity', 'A business rule refuses the request (e.g. currency mismatch, amount above what is due).'],
  429: ['TooManyRequests', 'Too many requests: wait `Retry-After` seconds.'],
  500: ['InternalError', 'Unexpected failure; the body carries only the request id.'],
};

function errorResponse(status: string, description: string) {
  return {
    description,
    headers: {
      'X-Request-Id': ref('headers', 'X-Request-Id'),
      ...(status === '429' && { 'Retry-After': ref('headers', 'Retry-After'), ...rateLimitHeaders }),
    },
    content: { 'application/json': { schema: ref('schemas', 'Error') } },
  };
}

/** Request examples of the first calls a user makes (checked against their schemas by Spectral in npm test). */
const REQUEST_EXAMPLES: Record<string, unknown> = {
  createInvoicingEntity: { name: 'Acme SAS', country: 'FR', currency: 'EUR', address_line1: '1 rue de la Paix', city: 'Paris', zip_code: '75002' },
  createCustomer: { name: 'Globex', currency: 'EUR', billing_email: 'billing@globex.example', billing_address: { line1: '5 avenue Foch', city: 'Lyon', zip: '69006', country: 'FR' } },
  createInvoice: { customer_id: 'cus_01JD2Q3R4S5T6V7W8X9Y0Z1A2B', line_items: [{ name: 'Setup', unit_amount: 50000 }] },
  createWebhookEndpoint: { url: 'https://example.org/webhooks', event_types: ['invoice.created', 'invoice.settled'] },
};

const hasBody = (route: RouteDefinition) => route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';

/** A body is required only when the schema requires a member; otherwise an absent body reads as `{}`. */
const bodyRequired = (body: Schema) => ((body.required as string[] | undefined)?.length ?? 0) > 0 || ((body.minProperties as number | undefined) ?? 0) > 0;

/** The error statuses a route can answer. */
function errorStatuses(route: RouteDefinition): string[] {
  const statuses = route.scope === 'public' ? ['400'] : ['400', '401', '403'];
  if (Object.keys((route.request.path?.properties ?? {}) as object).length > 0) statuses.push('404');
  if (route.method !== 'GET') statuses.push('409', '422');
  if (route.request.body) statuses.push('413', '415');
  // A public route has no workspace, hence no per-workspace limit: only the stage's throttling, which answers 429 too.
  statuses.push('429', '500');
  return statuses.sort();
}

function description(route: RouteDefinition): string {
  const lines = [route.description ?? `${route.summary}.`, '', route.scope === 'public' ? 'Public: no bearer token.' : `Scope: \`${route.scope}\`.`];
  if (route.response.list) lines.push('Paged: `take` (default 50) and `skip`; `meta.total` counts every match.');
  if (hasBody(route)) lines.push('Send `Idempotency-Key` to make a retry safe.');
  return lines.join('\n');
}

function operation(route: RouteDefinition) {
  const properties = (schema?: Schema) => Object.entries((schema?.properties ?? {}) as Record<string, Schema>);
  const required = (schema?: Schema) => new Set((schema?.required ?? []) as string[]);
  const parameters = [
    ...properties(route.request.path).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...properties(route.request.query).map(([name, schema]) => ({ name, in: 'query', required: required(route.request.query).has(name), schema })),
    ...(hasBody(route) && route.scope !== 'public' ? [ref('parameters', 'IdempotencyKey')] : []),
    ref('parameters', 'RequestId'),
  ];
  const binary = route.response.schema.format === 'binary';
  const page = route.response.schema.contentMediaType === 'text/html';
  const successHeaders = {
    'X-Request-Id': ref('headers', 'X-Request-Id'),
    ...(hasBody(route) && route.scope !== 'public' && { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') }),
    ...(route.scope !== 'public' && rateLimitHeaders),
  };
  const errors = errorStatuses(route).map((status) => [
    status,
    route.errorFormat === 'oauth' && status === '400'
      ? { description: route.path === '/oauth/register' ? 'Invalid client metadata (RFC 7591 §3.2.2).' : 'An OAuth error (RFC 6749 §5.2).', headers: { 'X-Request-Id': ref('headers', 'X-Request-Id') }, content: { 'application/json': { schema: ref('schemas', 'OAuthError') } } }
      : (OAUTH_RATE_LIMITED_ROUTES as readonly string[]).includes(route.id) && status === '429'
        ? { description: 'Too many requests from this address or client (docs/rate-limits.md, "OAuth endpoints"): wait `Retry-After` seconds. An OAuth error, `temporarily_unavailable`.', headers: { 'X-Request-Id': ref('headers', 'X-Request-Id'), 'Retry-After': ref('headers', 'Retry-After') }, content: { 'application/json': { schema: ref('schemas', 'OAuthError') } } }
        : ref('responses', ERRORS[status]![0]),
  ]);
  return {
    operationId: route.id,
    summary: route.summary,
    description: description(route),
    tags: [route.tag],
    'x-required-scope': route.scope,
    parameters,
    ...(route.request.body && {
      requestBody: {
        required: bodyRequired(route.request.body),
        content: {
          'application/json': { schema: withRefs(route.request.body), ...(REQUEST_EXAMPLES[route.id] !== undefined && { example: REQUEST_EXAMPLES[route.id] }) },
          // A public route's body may also be an HTML form (publicHandler): the OAuth endpoints' usual encoding.
          ...(route.scope === 'public' && { 'application/x-www-form-urlencoded': { schema: withRefs(route.request.body) } }),
        },
      },
    }),
    ...(route.scope === 'any' && { security: [{ bearer: [] }] }),
    ...(route.scope === 'public' && { security: [] }),
    responses: {
      [route.response.status]: {
        description: binary ? 'The file.' : page ? (route.response.status === 303 ? 'Back to the page (or the page again, saying why the form was refused).' : route.response.status === 302 ? 'A redirect (its Location), or a page.' : 'The page.') : route.response.list ? 'One page of the list.' : 'The resource.',
        headers: successHeaders,
        content: Object.fromEntries((binary ? route.response.mediaTypes ?? ['application/pdf'] : [page ? 'text/html' : 'application/json']).map((type) => [type, { schema: withRefs(route.response.schema) }])),
      },
      ...Object.fromEntries(errors),
    },
  };
}
