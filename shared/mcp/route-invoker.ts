import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { RouteDefinition } from '../../functions/route-definition';
import type { AuthorizedEvent } from '../http/request-context';
import { routeFunctionName } from './route-function-name';

/** Runs a route's handler with an event built for it: the route's own Lambda on AWS, its module locally. */
export type RouteInvoker = (route: RouteDefinition, event: AuthorizedEvent, context: Context) => Promise<APIGatewayProxyResultV2>;

/** Set by the stack on the MCP function: the prefix its route functions' names share (shared/mcp/route-function-name.ts). */
export const routeFunctionPrefixEnv = 'ROUTE_FUNCTION_PREFIX';

/**
 * On AWS (ROUTE_FUNCTION_PREFIX set by the stack) a tool call invokes the route's own function, named from the
 * prefix and the route id, with its own least-privilege role, and the MCP function carries no route code. Locally
 * the route's module runs in this process, as the local server runs it.
 */
export function routeInvoker(): RouteInvoker {
  const prefix = process.env[routeFunctionPrefixEnv];
  return prefix ? lambdaInvoker(prefix) : inProcessInvoker();
}

function lambdaInvoker(prefix: string): RouteInvoker {
  let client: LambdaClient | undefined;
  return async (route, event) => {
    const functionName = routeFunctionName(prefix, route.id);
    // Loaded on the first tool call, not at cold start (a tools/list never needs it).
    const { InvokeCommand, LambdaClient: Client } = await import('@aws-sdk/client-lambda');
    client ??= new Client({});
    const answer = await client.send(new InvokeCommand({ FunctionName: functionName, Payload: Buffer.from(JSON.stringify(event)) }));
    if (answer.FunctionError) throw new Error(`route ${route.id} failed: ${answer.FunctionError}`);
    return JSON.parse(Buffer.from(answer.Payload ?? new Uint8Array()).toString('utf8')) as APIGatewayProxyResultV2;
  };
}

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function inProcessInvoker(): RouteInvoker {
  return async (route, event, context) => {
    // A computed specifier: bundlers leave it alone, so the MCP function's bundle holds no route module.
    const module = (await import(pathToFileURL(join(projectRoot, route.handler)).href)) as { handler: (e: AuthorizedEvent, c: Context) => Promise<APIGatewayProxyResultV2> };
    return module.handler(event, context);
  };
}
