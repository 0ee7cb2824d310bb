import type { RouteDefinition } from '../../functions/route-definition';
import type { Schema } from '../schemas/common';
import type { ToolDefinition } from './catalog';

type Properties = Record<string, Schema>;

/** Where each input member of a tool goes in its route's request. */
export interface ToolShape {
  path: string[];
  query: string[];
  body: string[];
}

const propertiesOf = (schema: Schema | undefined): Properties => (schema?.properties ?? {}) as Properties;

/**
 * A list's query, trimmed for an agent: paging, order and plain equality filters (`status`, `status__in`), not the
 * dozen operators per field the HTTP API takes (they would multiply the tool list's size for little use).
 */
const agentQuery = (query: Properties): Properties =>
  Object.fromEntries(Object.entries(query).filter(([name]) => !name.includes('__') || name.endsWith('__in')));

/** Drops the validator's own keywords (`x-…`): a tool's schema is plain JSON Schema for any client. */
function plain(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(plain);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !key.startsWith('x-')).map(([key, value]) => [key, plain(value)]));
}

export const IDEMPOTENCY_MEMBER = 'idempotency_key';

/**
 * A tool's input schema: its route's path parameters (required), query and body members in one object, plus
 * `idempotency_key` for a tool that writes. The route's validators still check the request the tool builds.
 */
export function toolInput(route: RouteDefinition, tool: ToolDefinition): { schema: Schema; shape: ToolShape } {
  const path = propertiesOf(route.request.path);
  const query = agentQuery(propertiesOf(route.request.query));
  const body = propertiesOf(route.request.body);
  const required = [...Object.keys(path), ...((route.request.body?.required ?? []) as string[])];
  const properties: Properties = { ...body, ...query, ...path };
  if (tool.kind !== 'read') {
    properties[IDEMPOTENCY_MEMBER] = {
      type: 'string', minLength: 1, maxLength: 200,
      description: 'Makes a retried call safe: the same key within 24 h returns the first result. Default: derived from the call, so an identical call is not repeated.',
    };
  }
  return {
    schema: plain({ type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false }) as Schema,
    shape: { path: Object.keys(path), query: Object.keys(query), body: Object.keys(body) },
  };
}

/** JSON types of a response member, at its top level only: enough for a client to check, small enough for a tool list. */
function topLevelType(schema: Schema): Schema {
  if (schema.type !== undefined) return { type: schema.type };
  return {};
}

/** A compact output schema: the route's response members and their types, the rest left open. */
export function toolOutput(route: RouteDefinition): Schema {
  const properties = propertiesOf(route.response.schema);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, topLevelType(schema)])),
    additionalProperties: true,
  };
}
