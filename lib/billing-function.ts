import { Duration, Tags, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { FunctionBundles } from './function-bundles';
import { bindFiles } from './files-bucket';
import { bindPages, type PagesSettings } from './hosted-pages';
import { grantTableAccess, type TableAccess } from './table-access';

export type { TableAccess } from './table-access';

/** The production settings every function shares, chosen once per stack (BillingStackProps). */
export interface FunctionOperations {
  /** How long a function's log group keeps its lines. */
  logRetention: RetentionDays;
  /** Encrypts the log groups; the key must let CloudWatch Logs use it. Default: CloudWatch Logs' own encryption. */
  encryptionKey?: IKey;
  /** The hosted pages' URL and link secret: every function may render an invoice or a quote, whose links it signs. */
  pages?: PagesSettings;
  /** The files bucket (lib/files-bucket.ts): every function may draw an entity's logo or write an export. */
  files?: IBucket;
}

export interface BillingFunctionProps {
  /** Handler module, relative to `projectRoot`; it exports `handler`. */
  entry: string;
  /** Directory that `entry` is relative to (the one holding package.json). */
  projectRoot: string;
  description: string;
  /** Default: one CloudFormation generates. A route function's is set (lib/route-function.ts). */
  functionName?: string;
  /** Default 10 s: an HTTP route answers well within API Gateway's 30 s. */
  timeout?: Duration;
  /** Default 512 MB. */
  memorySize?: number;
  /** Tag put on the function, so tests and tooling can tell what it is: [key, value]. */
  tag: readonly [string, string];
  operations: FunctionOperations;
}

/** The runtime every function runs on: the one the bundles target (lib/bundling.ts) and the benchmark measures. */
export const functionRuntime = Runtime.NODEJS_22_X;

/**
 * One of the stack's Lambdas, with the conventions every one of them shares: Node 22 on arm64, the ESM bundling
 * of lib/bundling.ts (every function's in one esbuild build, lib/function-bundles.ts), X-Ray active tracing, its own
 * log group (retention and key from `operations`) that its own role may write to and no other, a tag naming it, and
 * (via bindTable) its table access.
 */
export class BillingFunction extends Construct {
  readonly fn: LambdaFunction;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: BillingFunctionProps) {
    super(scope, id);
    const { entry, projectRoot, operations } = props;
    // An explicit log group instead of `logRetention`, which would add a custom-resource Lambda to the stack.
    const logGroup = new LogGroup(this, 'Logs', { retention: operations.logRetention, encryptionKey: operations.encryptionKey });
    // Its own role instead of the default one, whose AWSLambdaBasicExecutionRole lets it write to any log group.
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(this.role);
    this.fn = new LambdaFunction(this, 'Function', {
      code: FunctionBundles.of(this, projectRoot).code(this, entry),
      handler: 'index.handler',
      functionName: props.functionName,
      runtime: functionRuntime,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      logGroup,
      role: this.role,
      tracing: Tracing.ACTIVE,
      description: props.description,
    });
    Tags.of(this.fn).add(props.tag[0], props.tag[1]);
    if (operations.pages) bindPages(this.fn, operations.pages);
    if (operations.files) bindFiles(this, this.fn, operations.files);
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permission (the only `*` a function gets; test/infra checks it).',
    });
    // CDK's KMS grants (for the table, the queues) name the action families, on the stack's one key only.
    for (const action of operations.encryptionKey ? ['kms:GenerateDataKey*', 'kms:ReEncrypt*'] : []) {
      Validations.of(this).acknowledge({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `${action} is how CDK grants use of a KMS key (encrypting items and queue messages); the resource is the stack's key alone.`,
      });
    }
    Validations.of(this.fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Node 22 on purpose: the bundles target it (lib/bundling.ts) and the benchmark measures it; moving to a newer runtime is a measured change of its own.',
    });
  }

  /** Gives the function the table's name and only the access it needs (lib/table-access.ts). */
  bindTable(table: ITable, access: TableAccess): void {
    this.fn.addEnvironment('TABLE_NAME', table.tableName);
    grantTableAccess(this.fn, table, access);
  }
}
