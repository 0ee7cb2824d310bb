import type { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes';
import { routeFunctionName } from '../shared/mcp/route-function-name';
import { BillingFunction, type FunctionOperations } from './billing-function';

export type { TableAccess } from './billing-function';

/** Tag put on every route function, so tests and tooling can tell them from any other Lambda. */
export const routeTagKey = 'billing:route';

export interface RouteFunctionProps {
  route: RouteDefinition;
  /** Directory that `route.handler` is relative to (the one holding package.json). */
  projectRoot: string;
  operations: FunctionOperations;
  /** The prefix of the function's name (shared/mcp/route-function-name.ts), the same for every route of the stack. */
  namePrefix: string;
}

/**
 * One route's Lambda: the function, its log group, and (via bindTable) its table access. Named from the stack and the
 * route id, so the MCP function finds it without a list of ARNs in its environment (BillingStack.wireMcpTools).
 */
export class RouteFunction extends BillingFunction {
  constructor(scope: Construct, id: string, { route, projectRoot, operations, namePrefix }: RouteFunctionProps) {
    super(scope, id, {
      entry: route.handler,
      functionName: routeFunctionName(namePrefix, route.id),
      projectRoot,
      description: `${route.method} ${route.path}`,
      tag: [routeTagKey, route.id],
      operations,
    });
  }
}
