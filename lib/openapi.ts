import { routes, type RouteDefinition } from '../functions/routes';
import type { Schema } from '../shared/schemas/common';

const errorBody = {
  type: 'object',
  required: ['message', 'code', 'request_id'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
    request_id: { type: 'string' },
  },
};

/** A binary response (the invoice PDF) is declared `{type: string, format: binary}`; everything else is JSON. */
const successMediaType = (route: RouteDefinition) => (route.response.schema.format === 'binary' ? 'application/pdf' : 'application/json');

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** The OpenAPI 3.1 document, generated from the route table (served locally at /openapi.json). */
export function openApiDocument(serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Billing API', version: '1.0.0', description: 'Recurring and one-off billing, invoicing, wallets and credits.' },
    ...(serverUrl && { servers: [{ url: serverUrl }] }),
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: errorBody },
    },
    paths,
  };
}

function operation(route: RouteDefinition) {
  const properties = (schema?: Schema) => Object.entries((schema?.properties ?? {}) as Record<string, Schema>);
  const required = (schema?: Schema) => new Set((schema?.required ?? []) as string[]);
  const parameters = [
    ...properties(route.request.path).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...properties(route.request.query).map(([name, schema]) => ({ name, in: 'query', required: required(route.request.query).has(name), schema })),
  ];
  return {
    operationId: route.id,
    summary: route.summary,
    tags: [route.tag],
    'x-required-scope': route.scope,
    ...(parameters.length > 0 && { parameters }),
    ...(route.request.body && { requestBody: { required: true, content: { 'application/json': { schema: route.request.body } } } }),
    responses: {
      [route.response.status]: { description: 'Success', content: { [successMediaType(route)]: { schema: route.response.schema } } },
      400: errorResponse('Invalid request'),
      401: errorResponse('Missing or invalid token'),
      403: errorResponse('Missing scope or workspace'),
      ...(route.request.path && { 404: errorResponse('Unknown id') }),
      409: errorResponse('State conflict'),
      422: errorResponse('Business rule violated'),
    },
  };
}
