import { fileURLToPath } from 'node:url';
import { ArnFormat, CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { routes as routeTable, type RouteDefinition } from '../functions/routes';
import { tableDefinition } from '../shared/db/table-definition';
import type { FunctionOperations } from './billing-function';
import { emailFeedbackHandler } from './email-feedback';
import { deliveryConsumer, EventPipeline, streamHandler, usageStreamHandler } from './event-pipeline';
import { FunctionBundles } from './function-bundles';
import { FilesBucket } from './files-bucket';
import { HostedPages } from './hosted-pages';
import { authorizerHandler, Identity, type ExternalIssuer } from './identity';
import { tools as mcpTools } from '../shared/mcp/catalog';
import { routeFunctionName, routeFunctionPrefix } from '../shared/mcp/route-function-name';
import { routeFunctionPrefixEnv } from '../shared/mcp/route-invoker';

/** The MCP endpoint's route (functions/mcp/routes.ts). */
const mcpRouteId = 'mcp';
import { ServiceDashboard } from './dashboard';
import { alarmEmailAddress, Monitoring, type FunctionGroup } from './monitoring';
import { OAuthSignIn, resolveUpstreamOidc, type UpstreamOidcProps } from './oauth-sign-in';
import { ProviderSecrets } from './provider-secrets';
import { resolveRateLimits, throttleStage, type RateLimitProps } from './rate-limits';
import { groupRoutes, RoutesStack } from './routes-stack';
import { dueWorker, Scheduler, scheduledHandler } from './scheduler';
import { resolveWorkerConcurrency, type WorkerConcurrency } from './worker-concurrency';

/** The project root: handler paths in the route table are relative to it. */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The routes that queue delivery jobs (a webhook message, an invoice email sent again, a portal link emailed): the only route functions allowed to send to SQS. */
export const routesQueueingDeliveries: readonly string[] = ['retryWebhookMessage', 'sendInvoice', 'createPortalSession'];

export interface BillingStackProps extends StackProps {
  /** Default: the route table (functions/routes.ts). Tests pass longer lists to check how the stack scales. */
  routes?: readonly RouteDefinition[];
  /** Per-workspace limits and the stage's throttling (lib/rate-limits.ts); default from CDK context, else decisions.md's. */
  rateLimits?: RateLimitProps;
  /** How long function logs and API access logs are kept. Default: one month. */
  logRetention?: RetentionDays;
  /**
   * A customer-managed KMS key for the table (and its stream), the queues and the log groups. Default: the services'
   * own encryption (DynamoDB's AWS-owned key, SSE-SQS, CloudWatch Logs'). A key made in this app gets a key-policy
   * statement letting CloudWatch Logs use it; an imported key must allow that itself (docs/operations.md).
   */
  encryptionKey?: IKey;
  /** Every alarm notifies this topic. Default: a topic of the stack's own (output `AlarmTopicArn`). */
  alarmTopic?: ITopic;
  /** An email address subscribed to the alarm topic. Default: CDK context `alarmEmail`, else none. */
  alarmEmail?: string;
  /**
   * Alarms on the route functions' errors and throttles, by area (two metrics a function, about $27 a month of the idle
   * stack's $34: docs/deploy.md). Without them a failing route still shows in the API's 5xx alarm; the workers' and the
   * authorizer's alarms stay. Default: CDK context `routeFunctionAlarms` (`false` turns them off), else on.
   */
  routeFunctionAlarms?: boolean;
  /** Concurrency caps of the SQS-fed workers (lib/worker-concurrency.ts). Default: CDK context `workerConcurrency`, else 20 and 16. */
  workerConcurrency?: Partial<WorkerConcurrency>;
  /** The SES identity (domain or address) emails to customers are sent from (docs/emails.md). Default: CDK context `sesIdentity`, else none: no email is sent. */
  sesIdentity?: string;
  /** The OpenID provider people sign in with on /oauth/authorize (lib/oauth-sign-in.ts). Default: CDK context, else none. */
  upstreamOidc?: UpstreamOidcProps;
}

/**
 * The billing API, built from the route table (functions/routes.ts) and the table definition. This stack holds the
 * shared resources (table, event pipeline, scheduler, HTTP API and its JWT authorizer); the routes live in nested
 * stacks, one per area (lib/routes-stack.ts), so that no stack nears CloudFormation's 500 resources.
 */
export class BillingStack extends Stack {
  /** The nested stacks holding the routes, one per area (`Routes<Tag>`, `Routes<Tag>2`, … past maxRoutesPerStack routes). */
  readonly routeStacks: readonly RoutesStack[];

  constructor(
    scope: Construct,
    id: string,
    {
      routes = routeTable, rateLimits: rateLimitProps, logRetention = RetentionDays.ONE_MONTH, encryptionKey, alarmTopic, alarmEmail, workerConcurrency: concurrencyProps, routeFunctionAlarms,
      upstreamOidc, sesIdentity, ...props
    }: BillingStackProps = {},
  ) {
    super(scope, id, props);
    // Every function's entry, so that the first bundled function builds them all in one esbuild run.
    FunctionBundles.of(this, projectRoot).declare([
      ...routes.map((route) => route.handler), streamHandler.entry, usageStreamHandler.entry, deliveryConsumer.entry, scheduledHandler.entry, dueWorker.entry, authorizerHandler.entry,
      emailFeedbackHandler.entry,
    ]);
    const rateLimits = resolveRateLimits(this.node, rateLimitProps);
    const concurrency = resolveWorkerConcurrency(this.node, concurrencyProps);
    // Checked before anything is built: a typo fails the synth at once.
    const alarmAddress = alarmEmail ?? this.optionalContext('alarmEmail');
    if (alarmAddress !== undefined) alarmEmailAddress(alarmAddress);
    const api = new HttpApi(this, 'HttpApi', { apiName: `${this.stackName}-http` });
    // Invoices and quotes carry signed links to their hosted pages: every function gets the secret and the URL.
    const pages = new HostedPages(this, 'HostedPages', { api });
    // Logos and exports (shared/storage/file-store.ts): every function may read or write its workspace's files.
    const files = new FilesBucket(this, 'Files', { encryptionKey });
    const operations: FunctionOperations = { logRetention, encryptionKey, pages: pages.settings, files: files.bucket };
    encryptionKey?.grantEncryptDecrypt(new ServicePrincipal(`logs.${this.region}.amazonaws.com`));

    const table = new Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The table holds the ledger: never delete it with the stack, nor by hand without first turning this off.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
      ...(encryptionKey && { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey }),
    });
    for (const index of tableDefinition.globalIndexes) {
      const { projection } = index;
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType[projection.type],
        nonKeyAttributes: 'attributes' in projection ? [...projection.attributes] : undefined,
      });
    }

    // DESIGN.md §6: the stream → events and messages → delivery jobs on SQS → signed POSTs.
    const events = new EventPipeline(this, 'Events', {
      table, projectRoot, operations, encryptionKey, deliveryConcurrency: concurrency.deliveries, sesIdentity: sesIdentity ?? this.optionalContext('sesIdentity'),
    });
    const scheduler = new Scheduler(this, 'Scheduler', { table, projectRoot, operations, encryptionKey, maxConcurrency: concurrency.dueWork });

    // The backstop for the whole API; the per-workspace limits are the route functions' (shared/http/rate-limit.ts).
    throttleStage(api, rateLimits.stage);
    // The service is its own token issuer; an external one is trusted only when configured (docs/identity.md).
    const publicUrl = this.optionalContext('publicApiUrl') ?? api.apiEndpoint;
    const identity = new Identity(this, 'Identity', { api, table, projectRoot, operations, publicUrl, externalIssuer: this.externalIssuer() });
    // Created here, in the parent stack, and handed to the nested stacks' routes by id.
    const authorizer = HttpAuthorizer.fromHttpAuthorizerAttributes(this, 'RouteAuthorizer', {
      authorizerId: identity.authorizer.authorizerId,
      // A route names a Lambda authorizer's type as CUSTOM (HttpLambdaAuthorizer does the same).
      authorizerType: 'CUSTOM',
    });

    const unknownRoutes = routesQueueingDeliveries.filter((id) => !routes.some((route) => route.id === id));
    if (unknownRoutes.length > 0) throw new Error(`BillingStack: routesQueueingDeliveries names unknown routes: ${unknownRoutes.join(', ')}`);

    const upstream = resolveUpstreamOidc(this.node, upstreamOidc);
    const oauthSignIn = upstream && new OAuthSignIn(this, 'OAuthSignIn', upstream);
    // The workspaces' Stripe keys: the routes that use them, and the worker whose automatic collection charges.
    const providerSecrets = new ProviderSecrets(this, 'ProviderSecrets');
    providerSecrets.bind(scheduler.worker.fn, 'open');

    this.routeStacks = groupRoutes(routes).map(
      (group) => new RoutesStack(this, group.name, {
        routes: group.routes, api, authorizer, identity, publicUrl, table, events, routesQueueingDeliveries, projectRoot, operations, rateLimits: rateLimits.perWorkspace,
        oauthSignIn, providerSecrets,
      }),
    );

    this.wireMcpTools();

    // The API's access log, the alarms and their topic, the dashboard (docs/operations.md).
    const workers = [
      { label: 'Stream handler', fn: events.streamHandler.fn },
      { label: 'Usage stream handler', fn: events.usageStreamHandler.fn },
      { label: 'Delivery consumer', fn: events.deliveryConsumer.fn, maxConcurrency: concurrency.deliveries },
      { label: 'Scheduled run', fn: scheduler.handler.fn },
      { label: 'Due-work worker', fn: scheduler.worker.fn, maxConcurrency: concurrency.dueWork },
      { label: 'Authorizer', fn: identity.authorizerFunction.fn },
    ];
    const functionGroups: FunctionGroup[] = [
      // A route stack's alarms live in it, beside the functions they watch.
      ...(this.routeFunctionAlarms(routeFunctionAlarms) ? this.routeStacks : []).map((stack) => ({ name: stack.node.id, scope: stack, functions: [...stack.functions.values()].map((f) => f.fn) })),
      { name: 'StreamHandler', functions: [events.streamHandler.fn] },
      { name: 'UsageStreamHandler', functions: [events.usageStreamHandler.fn] },
      { name: 'DeliveryConsumer', functions: [events.deliveryConsumer.fn] },
      { name: 'Scheduler', functions: [scheduler.handler.fn, scheduler.worker.fn] },
      { name: 'Authorizer', functions: [identity.authorizerFunction.fn] },
      ...(events.emailFeedback ? [{ name: 'EmailFeedback', functions: [events.emailFeedback.handler.fn] }] : []),
    ];
    const failureQueues = {
      streamFailures: events.streamFailureQueue, deliveryDeadLetters: events.deliveryDeadLetterQueue, dueWorkDeadLetters: scheduler.deadLetterQueue,
      emailFeedbackDeadLetters: events.emailFeedback?.deadLetterQueue,
    };
    const monitoring = new Monitoring(this, 'Monitoring', {
      api, table, streamHandler: events.streamHandler.fn, usageStreamHandler: events.usageStreamHandler.fn, failureQueues, functionGroups, logRetention, encryptionKey,
      alarmTopic, alarmEmail: alarmAddress,
    });
    new ServiceDashboard(this, 'Dashboard', {
      api,
      table,
      workers,
      streamHandler: events.streamHandler.fn,
      usageStreamHandler: events.usageStreamHandler.fn,
      workQueues: [{ label: 'Deliveries', queue: events.deliveryQueue }, { label: 'Due work', queue: scheduler.queue }],
      failureQueues: [
        { label: 'Stream failures', queue: failureQueues.streamFailures },
        { label: 'Delivery dead letters', queue: failureQueues.deliveryDeadLetters },
        { label: 'Due-work dead letters', queue: failureQueues.dueWorkDeadLetters },
      ],
      // This stack's own: the route stacks' alarms would each need an output of their stack.
      alarms: monitoring.alarms.filter((alarm) => Stack.of(alarm) === this),
    });

    new CfnOutput(this, 'ApiUrl', { value: api.apiEndpoint });
    new CfnOutput(this, 'PublicPagesUrl', { value: pages.settings.url, description: 'Where invoice, quote and portal links point (PUBLIC_PAGES_URL).' });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.alarmTopic.topicArn, description: 'Every alarm notifies this SNS topic; subscribe to it (or set alarmEmail).' });
    new CfnOutput(this, 'DeliveryQueueName', { value: events.deliveryQueue.queueName });
    new CfnOutput(this, 'DeliveryDeadLetterQueueName', { value: events.deliveryDeadLetterQueue.queueName });
    new CfnOutput(this, 'StreamFailureQueueName', { value: events.streamFailureQueue.queueName });
    new CfnOutput(this, 'DueWorkDeadLetterQueueName', { value: scheduler.deadLetterQueue.queueName });
  }

  /**
   * The MCP function runs each tool's route in that route's own function (shared/mcp/route-invoker.ts): it may invoke
   * those functions and no other. It finds them by name: every route function is named from the stack's name and its
   * route id (shared/mcp/route-function-name.ts), so its environment holds one prefix, not 40 ARNs (which resolve to
   * ~5.5 KB, past Lambda's 4 KB for a function's whole environment). Names rather than an SSM parameter or a table
   * item: nothing to read at cold start, nothing that can drift from the functions. The policy lists the exact ARNs
   * (about 5 KB at worst, within IAM's 10,240 characters per role; test/infra/resolved-sizes.test.ts checks both).
   */
  private wireMcpTools(): void {
    const functionOf = (routeId: string) => this.routeStacks.map((stack) => stack.functions.get(routeId)).find(Boolean);
    const mcp = functionOf(mcpRouteId);
    if (!mcp) return;
    const prefix = routeFunctionPrefix(this.stackName);
    const targets = new Set<string>();
    for (const tool of mcpTools) {
      if (!functionOf(tool.route)) throw new Error(`BillingStack: the MCP tool ${tool.name} names the route ${tool.route}, which is not in the table`);
      targets.add(routeFunctionName(prefix, tool.route));
    }
    // The functions themselves, not their versions (`:*`, which grantInvoke adds): the tools call $LATEST.
    const arnOf = (name: string) => Stack.of(mcp.fn).formatArn({ service: 'lambda', resource: 'function', resourceName: name, arnFormat: ArnFormat.COLON_RESOURCE_NAME });
    mcp.fn.addToRolePolicy(new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [...targets].map(arnOf) }));
    mcp.fn.addEnvironment(routeFunctionPrefixEnv, prefix);
  }

  /** The property, else the context's `true`/`false` (a string from `-c`, a boolean from cdk.json), else on. */
  private routeFunctionAlarms(prop: boolean | undefined): boolean {
    if (prop !== undefined) return prop;
    const value: unknown = this.node.tryGetContext('routeFunctionAlarms');
    if (value === undefined || value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw new Error(`BillingStack: CDK context "routeFunctionAlarms" must be true or false, not ${JSON.stringify(value)}`);
  }

  private optionalContext(key: string): string | undefined {
    const value: unknown = this.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' || value.trim() === '') throw new Error(`BillingStack: CDK context "${key}" must be a non-empty string`);
    return value.trim();
  }

  /** An external issuer to trust beside the service's own: context `jwtIssuer` with `jwtAudience` (and `jwtJwksUrl`). */
  private externalIssuer(): ExternalIssuer | undefined {
    const issuer = this.optionalContext('jwtIssuer');
    const audience = this.optionalContext('jwtAudience');
    if (!issuer) return undefined;
    if (!audience) throw new Error('BillingStack: CDK context "jwtIssuer" needs "jwtAudience" (comma-separated audiences) beside it');
    const jwksUrl = this.optionalContext('jwtJwksUrl');
    return { issuer, audiences: audience.split(',').map((a) => a.trim()).filter(Boolean), ...(jwksUrl && { jwksUrl }) };
  }
}
