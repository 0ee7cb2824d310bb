import type { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes';
import { BillingFunction, type FunctionOperations } from './billing-function';

export type { TableAccess } from './billing-function';

/** Tag put on every route function, so tests and tooling can tell them from any other Lambda. */
export const routeTagKey = 'billing:route';

export interface RouteFunctionProps {
  route: RouteDefinition;
  /** Directory that `route.handler` is relative to (the one holding package.json). */
  projectRoot: string;
  operations: FunctionOperations;
}

/** One route's Lambda: the function, its log group, and (via bindTable) its table access. */
export class RouteFunction extends BillingFunction {
  constructor(scope: Construct, id: string, { route, projectRoot, operations }: RouteFunctionProps) {
    super(scope, id, {
      entry: route.handler,
      projectRoot,
      description: `${route.method} ${route.path}`,
      tag: [routeTagKey, route.id],
      operations,
    });
  }
}
