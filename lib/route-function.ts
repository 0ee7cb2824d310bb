import path from 'node:path';
import { Duration, Tags } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes';
import { lambdaBundling } from './bundling';

export type TableAccess = 'read' | 'readWrite';

/** Tag put on every route function, so tests and tooling can tell them from any other Lambda. */
export const routeTagKey = 'billing:route';

export interface RouteFunctionProps {
  route: RouteDefinition;
  /** Directory that `route.handler` is relative to (the one holding package.json). */
  projectRoot: string;
}

/** One route's Lambda: the function, its log group, and (via bindTable) its table access. */
export class RouteFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, { route, projectRoot }: RouteFunctionProps) {
    super(scope, id);
    // An explicit log group instead of `logRetention`, which would add a custom-resource Lambda to the stack.
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(projectRoot, route.handler),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(10),
      bundling: lambdaBundling,
      logGroup,
      description: `${route.method} ${route.path}`,
    });
    Tags.of(this.fn).add(routeTagKey, route.id);
  }

  /** Gives the function the table's name and only the access it needs. */
  bindTable(table: ITable, access: TableAccess): void {
    this.fn.addEnvironment('TABLE_NAME', table.tableName);
    if (access === 'read') table.grantReadData(this.fn);
    else table.grantReadWriteData(this.fn);
  }
}
