import { createHash } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { RouteDefinition } from '../../functions/route-definition';
import type { AuthorizedEvent } from '../http/request-context';
import type { RouteInvoker } from './route-invoker';
import { IDEMPOTENCY_MEMBER, type ToolShape } from './tool-schema';

export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** A query value as API Gateway hands it over: text. */
const asQueryText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The Idempotency-Key of a write tool call: the agent's, else one derived from who calls, the tool and its
 * arguments, so that a client retrying a call it did not see answered never bills twice (docs/mcp.md).
 */
export function idempotencyKeyOf(toolName: string, args: Record<string, unknown>, caller: string): string {
  const given = args[IDEMPOTENCY_MEMBER];
  if (typeof given === 'string' && given !== '') return `mcp:${given}`;
  const canonical = JSON.stringify(Object.keys(args).sort().map((key) => [key, args[key]]));
  return `mcp:${createHash('sha256').update(`${caller}\n${toolName}\n${canonical}`).digest('hex')}`;
}

/**
 * Runs a route's own handler for a tool call (`invoke`: its Lambda on AWS, its module locally): the MCP request's
 * verified credential (its authorizer context) and
 * request context, the tool's arguments split into path, query and body as the route takes them.
 */
export async function callRoute(
  route: RouteDefinition,
  invoke: RouteInvoker,
  shape: ToolShape,
  args: Record<string, unknown>,
  from: { event: AuthorizedEvent; context: Context; idempotencyKey?: string; requestId: string },
): Promise<RouteAnswer> {
  const pathParameters: Record<string, string> = {};
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || name === IDEMPOTENCY_MEMBER) continue;
    if (shape.path.includes(name)) pathParameters[name] = String(value);
    else if (shape.query.includes(name)) query[name] = asQueryText(value);
    else body[name] = value;
  }
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParameters[name] ?? ''));
  const rawQueryString = new URLSearchParams(query).toString();
  const hasBody = route.request.body !== undefined;
  const headers: Record<string, string> = {
    'x-request-id': from.requestId,
    ...(hasBody && { 'content-type': 'application/json' }),
    ...(from.idempotencyKey && { 'idempotency-key': from.idempotencyKey }),
  };
  const event: AuthorizedEvent = {
    ...from.event,
    routeKey: `${route.method} ${route.path}`,
    rawPath: path,
    rawQueryString,
    headers,
    cookies: undefined,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
    isBase64Encoded: false,
    requestContext: { ...from.event.requestContext, routeKey: `${route.method} ${route.path}`, http: { ...from.event.requestContext.http, method: route.method, path } },
  };
  const result = await invoke(route, event, from.context);
  const structured = typeof result === 'object' && result !== null && 'statusCode' in result ? result : { statusCode: 200, body: JSON.stringify(result) };
  const text = structured.body ?? '';
  return { status: structured.statusCode ?? 200, body: text ? JSON.parse(text) : undefined };
}
