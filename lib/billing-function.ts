import path from 'node:path';
import { Duration, Tags } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { lambdaBundling } from './bundling';

export type TableAccess = 'read' | 'readWrite';

export interface BillingFunctionProps {
  /** Handler module, relative to `projectRoot`; it exports `handler`. */
  entry: string;
  /** Directory that `entry` is relative to (the one holding package.json). */
  projectRoot: string;
  description: string;
  /** Default 10 s: an HTTP route answers well within API Gateway's 30 s. */
  timeout?: Duration;
  /** Default 512 MB. */
  memorySize?: number;
  /** Tag put on the function, so tests and tooling can tell what it is: [key, value]. */
  tag: readonly [string, string];
}

/**
 * One of the stack's Lambdas, with the conventions every one of them shares: Node 22 on arm64, the ESM bundling
 * of lib/bundling.ts, its own log group kept a month, a tag naming it, and (via bindTable) its table access.
 */
export class BillingFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: BillingFunctionProps) {
    super(scope, id);
    const { entry, projectRoot } = props;
    // An explicit log group instead of `logRetention`, which would add a custom-resource Lambda to the stack.
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    this.fn = new NodejsFunction(this, 'Function', {
      entry: path.join(projectRoot, entry),
      handler: 'handler',
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      bundling: lambdaBundling,
      logGroup,
      description: props.description,
    });
    Tags.of(this.fn).add(props.tag[0], props.tag[1]);
  }

  /** Gives the function the table's name and only the access it needs. */
  bindTable(table: ITable, access: TableAccess): void {
    this.fn.addEnvironment('TABLE_NAME', table.tableName);
    if (access === 'read') table.grantReadData(this.fn);
    else table.grantReadWriteData(this.fn);
  }
}
