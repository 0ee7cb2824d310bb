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

/** Longer value lists (countries, currencies, time zones) are named, not listed: the route validates them anyway. */
const MAX_LISTED_VALUES = 12;

/** The name of a long value list, which an agent knows by it. */
const codeListName = (values: string[]): string =>
  values.includes('EUR') ? 'ISO 4217 currency' : values.includes('FR') ? 'ISO 3166-1 country' : values.includes('Europe/Paris') ? 'IANA time zone' : `e.g. ${values.slice(0, 3).join(', ')}`;

/**
 * A member's description, to its first sentence: the route's reference (docs/api.md) has the rest. A sentence that
 * only announces what follows ("null (default):") says nothing alone: none then.
 */
const firstSentence = (text: string): string | undefined => {
  const first = /^.*?[.:](?=\s|$)/s.exec(text)?.[0] ?? text;
  return first.endsWith(':') ? undefined : first;
};

/** What a tool's schema keeps of a route's: the shape an agent needs; bounds and patterns stay the route's to check. */
const KEPT_KEYWORDS = new Set(['type', 'properties', 'required', 'items', 'enum', 'description', 'anyOf', 'oneOf', 'const', 'default']);

/**
 * Hyperline's names and shapes, which the API takes beside its own for clients ported from Hyperline (each described
 * "Hyperline…": docs/hyperline.md). An agent is given one way to say a thing, ours: they are left out of its tools.
 */
const isHyperlineOnly = (schema: unknown): boolean => /^Hyperline\b/.test(String((schema as { description?: unknown } | null)?.description ?? ''));

/**
 * A tool's schema for an agent: the shape (types, members, required ones, short value lists, descriptions) without
 * the validator's bounds, patterns, long value lists, `null` alternatives and Hyperline's alternatives, which would
 * fill its context for nothing: the route's validator still applies every rule and answers a field error the agent
 * can act on.
 */
function plain(schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => plain(item, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const nonNull = Array.isArray(node.anyOf) ? (node.anyOf as Record<string, unknown>[]).filter((branch) => branch.type !== 'null' && !isHyperlineOnly(branch)) : undefined;
  if (nonNull?.length === 1) return plain({ ...nonNull[0], ...(node.description !== undefined && { description: node.description }) }, depth);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT_KEYWORDS.has(key)) continue;
    if (key === 'enum' && (value as unknown[]).length > MAX_LISTED_VALUES) {
      copy.description ??= codeListName(value as string[]);
      continue;
    }
    if (key === 'anyOf' && nonNull) copy.anyOf = plain(nonNull, depth);
    else if (key === 'properties') {
      copy.properties = Object.fromEntries(Object.entries(value as object).filter(([, v]) => !isHyperlineOnly(v)).map(([k, v]) => [k, plain(v, depth + 1)]));
    } else if (key === 'description') {
      // The tool's own members are described; what they hold is named by its members' names (docs/api.md says more).
      const sentence = depth <= 1 ? firstSentence(value as string) : undefined;
      if (sentence !== undefined) copy.description = sentence;
    } else if (!(key === 'required' && (value as unknown[]).length === 0)) copy[key] = plain(value, depth);
  }
  return copy;
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
      type: 'string',
      description: 'One effect per key for 24 h.',
    };
  }
  return {
    schema: { ...(plain({ type: 'object', properties, ...(required.length > 0 && { required }) }) as Schema), additionalProperties: false },
    shape: { path: Object.keys(path), query: Object.keys(query), body: Object.keys(body) },
  };
}

/**
 * A tool's output schema: the object the route answers, named by its identifying members (`id` and `status` of a
 * resource, `meta` and `data` of a list), the rest open. Listing every member of every resource would be most of
 * the tool list's size; an agent reads them from the result itself.
 */
export function toolOutput(route: RouteDefinition): Schema {
  const members = propertiesOf(route.response.schema);
  const named = ['id', 'status', 'meta', 'data'].filter((name) => members[name] !== undefined);
  return {
    type: 'object',
    // Open to the other members by default (JSON Schema's additionalProperties is true when absent).
    properties: Object.fromEntries(named.map((name) => [name, { type: members[name]!.type ?? 'object' }])),
  };
}
