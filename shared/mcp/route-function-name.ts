import { createHash } from 'node:crypto';

/** Lambda's limit on a function name. */
const maxFunctionName = 64;
/** A stack name longer than this is cut and told apart from others by a hash, leaving the route id room. */
const maxPrefix = 24;

const shortHash = (text: string, length: number): string => createHash('sha256').update(text).digest('hex').slice(0, length);

/**
 * The prefix of every route function's name in a stack: the stack's name, or its first characters and a hash of it
 * (two long stack names that share their start still get different prefixes).
 */
export function routeFunctionPrefix(stackName: string): string {
  return stackName.length <= maxPrefix ? stackName : `${stackName.slice(0, maxPrefix - 7)}-${shortHash(stackName, 6)}`;
}

/**
 * The name of a route's function: `<prefix>-<route id>`, or, past Lambda's 64 characters, its first characters and a
 * hash of the whole. The stack names each route function so (lib/route-function.ts) and the MCP function computes the
 * same name from the prefix alone (shared/mcp/route-invoker.ts): a lookup that costs no environment per route.
 */
export function routeFunctionName(prefix: string, routeId: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(prefix) || !/^[A-Za-z0-9_-]+$/.test(routeId)) throw new Error(`routeFunctionName: ${prefix}-${routeId} is not a Lambda function name`);
  const name = `${prefix}-${routeId}`;
  return name.length <= maxFunctionName ? name : `${name.slice(0, maxFunctionName - 9)}-${shortHash(name, 8)}`;
}
