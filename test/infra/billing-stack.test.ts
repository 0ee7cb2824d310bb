import { Match, Template } from 'aws-cdk-lib/assertions';
import { routes, type RouteDefinition } from '../../functions/routes';
import { BillingStack, routesQueueingDeliveries } from '../../lib/billing-stack';
import {
  deliveryConsumer, deliveryQueueUrlEnv, deliveryQueueVisibility, streamHandler, streamParallelization, usageStreamHandler, webhookPostTimeout, workerTagKey,
} from '../../lib/event-pipeline';
import { routeTagKey } from '../../lib/route-function';
import { DEFAULT_STAGE_THROTTLE } from '../../lib/rate-limits';
import { groupRoutes, maxRoutesPerStack } from '../../lib/routes-stack';
import { dueQueueVisibility, dueWorker, scheduledHandler } from '../../lib/scheduler';
import { authorizerHandler, routesUsingSigningKey } from '../../lib/identity';
import { maxMetricsPerAlarm } from '../../lib/monitoring';
import { LEASE_PARTITION, SCHEDULE_PARTITION } from '../../shared/db/keys';
import { routesUsingProviderSecrets } from '../../lib/provider-secrets';
import { tools as mcpTools } from '../../shared/mcp/catalog';
import { routeFunctionName } from '../../shared/mcp/route-function-name';
import { routeFunctionPrefixEnv } from '../../shared/mcp/route-invoker';
import { AUTHORIZER_CACHE_SECONDS, REVOCATION_BOUND_SECONDS } from '../../shared/identity/cache-lifetimes';
import { tableDefinition } from '../../shared/db/table-definition';
import { EVENT_SOURCE_TYPES } from '../../shared/domain/events/map-change';
import { DEFAULT_RATE_LIMITS, RATE_LIMIT_ATTRIBUTES, rateLimitEnvironment } from '../../shared/http/rate-limit-settings';
import { flatId, flattenTemplates, resourceCount, stackTemplates, testApp, type StackTemplate } from './stack-templates';

/** The operators' dashboard (its bucket, distribution and CDK's copying function) is left out: test/infra/operator-dashboard.test.ts. */
const context = { operatorDashboard: 'false' };
const writeActions = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'];

type Resource = { Properties: Record<string, any> };
let stack: BillingStack;
/** The parent stack's template and each nested stack's (lib/routes-stack.ts), the parent first. */
let stacks: StackTemplate[];
/**
 * The parent and nested stacks flattened into one template (./stack-templates.ts): nested resources are named
 * `Routes<Tag>.<logical id>`, and their parameters are replaced by what the parent passes in, so a route function's
 * `TABLE_NAME` is `{Ref: <the table>}` here as it would be in a single stack.
 */
let template: Template;
/** Route id → logical id of its Lambda function, found by the tag RouteFunction puts on it. */
const functionIdByRoute = new Map<string, string>();
/** Worker id (the stream handler's, the delivery consumer's) → logical id of its Lambda function, by its tag. */
const functionIdByWorker = new Map<string, string>();

/** The logical id of the one resource in `resources`. */
const onlyId = (resources: Record<string, unknown>): string => {
  const ids = Object.keys(resources);
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };

/** Every IAM statement granted to a function's role, across the policies attached to it. */
const statementsOf = (functionId: string): Statement[] => {
  const fn = template.findResources('AWS::Lambda::Function')[functionId] as Resource;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const policies = Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>).filter((p) =>
    (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleId })),
  );
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
};

/** Every IAM action granted to a function's role, across the policies attached to it. */
const actionsOf = (functionId: string): string[] => statementsOf(functionId).flatMap((s) => s.Action);

/** The rate limiter's grant (lib/rate-limits.ts): UpdateItem on the table, on counter items and attributes only. */
const rateLimitStatement = (table: string, leadingKeys = ['WS#*#RATELIMIT#*']) => ({
  Effect: 'Allow',
  Action: 'dynamodb:UpdateItem',
  Resource: { 'Fn::GetAtt': [table, 'Arn'] },
  Condition: {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys },
    'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RATE_LIMIT_ATTRIBUTES] },
    StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_NEW'] },
  },
});
const isRateLimitStatement = (s: Statement): boolean => s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] !== undefined;

const functions = () => template.findResources('AWS::Lambda::Function') as Record<string, Resource>;
const queues = () => template.findResources('AWS::SQS::Queue') as Record<string, Resource>;
const streamHandlerId = () => functionIdByWorker.get(streamHandler.id)!;
const usageHandlerId = () => functionIdByWorker.get(usageStreamHandler.id)!;
const consumerId = () => functionIdByWorker.get(deliveryConsumer.id)!;
/** The logical ids of the functions that may queue delivery jobs: the listed routes' and the two workers'. */
const queueingFunctionIds = () => [...routesQueueingDeliveries.map((id) => functionIdByRoute.get(id)!), streamHandlerId(), consumerId()].sort();

/** The one event source mapping reading from `source` (a `Fn::GetAtt` of the stream or the queue), into `functionId` if given. */
const mappingFrom = (source: unknown, functionId?: string): Resource => {
  const found = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter(
    (m) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(source) && (!functionId || m.Properties.FunctionName.Ref === functionId),
  );
  expect(found).toHaveLength(1);
  return found[0]!;
};
const tableId = () => onlyId(template.findResources('AWS::DynamoDB::Table'));
/** The due-work queue: the one the scheduled function is told to send to. */
const dueQueueId = () => {
  const env = functions()[functionIdByWorker.get(scheduledHandler.id)!]!.Properties.Environment.Variables;
  const queueId = env.DUE_QUEUE_URL.Ref as string;
  expect(queues()[queueId]).toBeDefined();
  return queueId;
};
const streamMapping = (functionId = streamHandlerId()) => mappingFrom({ 'Fn::GetAtt': [tableId(), 'StreamArn'] }, functionId);
/** The delivery queue: the one the consumer's mapping reads from. */
const deliveryQueueId = () => {
  const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>);
  const sqs = mappings.filter((m) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: consumerId() }));
  expect(sqs).toHaveLength(1);
  const [queueId, attribute] = sqs[0]!.Properties.EventSourceArn['Fn::GetAtt'] as [string, string];
  expect(attribute).toBe('Arn');
  expect(queues()[queueId]).toBeDefined();
  return queueId;
};

/**
 * Lambda's event filtering, for the subset of patterns the stack uses (nested keys, lists of exact values): whether
 * `record` matches `pattern`. The patterns of a mapping are ORed.
 */
const matches = (pattern: unknown, record: unknown): boolean => {
  if (Array.isArray(pattern)) return pattern.some((value) => JSON.stringify(value) === JSON.stringify(record));
  if (typeof pattern !== 'object' || pattern === null) throw new Error(`unsupported pattern ${JSON.stringify(pattern)}`);
  if (typeof record !== 'object' || record === null) return false;
  return Object.entries(pattern).every(([key, sub]) => key in record && matches(sub, (record as Record<string, unknown>)[key]));
};

beforeAll(() => {
  const app = testApp(context);
  stack = new BillingStack(app, 'Test');
  stacks = stackTemplates(stack);
  template = flattenTemplates(stacks);
  for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function') as Record<string, Resource>)) {
    const tags = fn.Properties.Tags as { Key: string; Value: string }[] | undefined;
    const tag = tags?.find((t) => t.Key === routeTagKey);
    if (tag) functionIdByRoute.set(tag.Value, id);
    const worker = tags?.find((t) => t.Key === workerTagKey);
    if (worker) functionIdByWorker.set(worker.Value, id);
  }
});

/** The non-route Lambdas: the stream's two consumers, delivery consumer, scheduled handler, due-work worker, credential authorizer. */
const WORKERS = 6;

describe('functions', () => {
  test('one Lambda per route-table entry, plus the stream\'s two consumers, the delivery consumer, the scheduled handler, its worker and the authorizer, and no other Lambda', () => {
    template.resourceCountIs('AWS::Lambda::Function', routes.length + WORKERS);
    expect([...functionIdByRoute.keys()].sort()).toEqual(routes.map((r) => r.id).sort());
    expect([...functionIdByWorker.keys()].sort()).toEqual([streamHandler.id, usageStreamHandler.id, deliveryConsumer.id, scheduledHandler.id, dueWorker.id, authorizerHandler.id].sort());
    // Each function is one thing: a route or a worker, never both.
    expect(new Set([...functionIdByRoute.values(), ...functionIdByWorker.values()]).size).toBe(routes.length + WORKERS);
  });

  test('an EventBridge rule runs the scheduled handler every minute; it queries the scheduling index, never scans, sends to the due-work queue, and reads and writes no item but its lease and cursor', () => {
    const id = functionIdByWorker.get(scheduledHandler.id)!;
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [id, 'Arn'] } })],
    });
    expect(actionsOf(id)).not.toContain('dynamodb:Scan');
    // Its item reads and writes are the lease's and the cursor's statements, each conditioned on its partition (test/infra/operations.test.ts).
    const conditioned = (s: { Condition?: unknown }) => [LEASE_PARTITION, SCHEDULE_PARTITION].some((p) => JSON.stringify(s.Condition ?? {}).includes(p));
    const unconditioned = statementsOf(id).filter((s) => !conditioned(s));
    for (const action of [...writeActions, 'dynamodb:GetItem']) expect(unconditioned.flatMap((s) => s.Action)).not.toContain(action);
    // Its one Query: the scheduling index.
    expect(unconditioned.filter((s) => [s.Action].flat().includes('dynamodb:Query')).flatMap((s) => [s.Resource].flat()).map((r) => JSON.stringify(r))).toEqual([expect.stringContaining('/index/gsi4')]);
    expect(actionsOf(id)).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    const queueId = dueQueueId();
    expect(functions()[id]!.Properties.Environment.Variables.DUE_QUEUE_URL).toEqual({ Ref: queueId });
    expect(functions()[id]!.Properties.Timeout).toBe(scheduledHandler.timeout.toSeconds());
  });

  test('the due-work queue: FIFO (grouped per item or per entity\'s renewals, deduplicated), consumed by the worker with partial batch failures; a poison item is dead-lettered after maxReceiveCount receives', () => {
    const queue = template.findResources('AWS::SQS::Queue')[dueQueueId()]!.Properties;
    expect(queue).toMatchObject({ FifoQueue: true, DeduplicationScope: 'messageGroup', FifoThroughputLimit: 'perMessageGroupId', VisibilityTimeout: dueQueueVisibility.toSeconds() });
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(dueWorker.maxReceiveCount);
    const deadLetters = template.findResources('AWS::SQS::Queue')[queue.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]]!.Properties;
    expect(deadLetters).toMatchObject({ FifoQueue: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const worker = functionIdByWorker.get(dueWorker.id)!;
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [dueQueueId(), 'Arn'] },
      FunctionName: { Ref: worker },
      BatchSize: dueWorker.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: dueWorker.maxConcurrency },
    });
    // SQS's advice: visibility ≥ 6 × the consumer's timeout, so a slow batch is not received twice.
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * functions()[worker]!.Properties.Timeout);
    // The worker reads and writes the table, and sends to no queue; it shortens a failed message's visibility on its queue.
    expect(actionsOf(worker)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', ...writeActions, 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']));
    expect(functions()[worker]!.Properties.Environment.Variables.DUE_QUEUE_URL).toEqual({ Ref: dueQueueId() });
    expect(actionsOf(worker)).not.toContain('sqs:SendMessage');
    expect(actionsOf(worker)).not.toContain('dynamodb:Scan');
  });

  test('every function: Node 22 on arm64, 512 MB, TABLE_NAME, a log group kept one month', () => {
    template.allResourcesProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      Handler: 'index.handler',
      Environment: { Variables: Match.objectLike({ TABLE_NAME: { Ref: tableId() } }) },
      LoggingConfig: { LogGroup: { Ref: Match.anyValue() } },
    });
    // One per function, and the API's access log.
    template.resourceCountIs('AWS::Logs::LogGroup', routes.length + WORKERS + 1);
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    const logGroupIds = Object.values(functions()).map((fn) => fn.Properties.LoggingConfig.LogGroup.Ref as string);
    expect(new Set(logGroupIds).size).toBe(routes.length + WORKERS);
  });

  test('timeouts: 10 s per route, the workers\' own', () => {
    for (const id of functionIdByRoute.values()) expect(functions()[id]!.Properties.Timeout).toBe(10);
    expect(functions()[streamHandlerId()]!.Properties.Timeout).toBe(streamHandler.timeout.toSeconds());
    expect(functions()[consumerId()]!.Properties.Timeout).toBe(deliveryConsumer.timeout.toSeconds());
  });

  test.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: table access matches the method', (_key, route) => {
    // The rate-limit counter's grant aside (its own test, below): a GET function may not write at all.
    const actions = statementsOf(functionIdByRoute.get(route.id)!).filter((s) => !isRateLimitStatement(s)).flatMap((s) => s.Action);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    for (const action of writeActions) {
      // GET routes write nothing but the rate limiter's counter (an UpdateItem), unless they declare `writes` (the
      // OAuth browser flow's GETs, which keep the pending sign-in).
      if (route.method !== 'GET' || route.writes) expect(actions).toContain(action);
      else if (action !== 'dynamodb:UpdateItem') expect(actions).not.toContain(action);
    }
  });
});

describe('rate limits', () => {
  const envOf = (functionId: string): Record<string, unknown> => functions()[functionId]!.Properties.Environment.Variables;
  const stageOf = (t: Template) => Object.values(t.findResources('AWS::ApiGatewayV2::Stage') as Record<string, Resource>)[0]!.Properties;
  const routeFunctionsOf = (list: StackTemplate[]) => {
    const flat = flattenTemplates(list);
    return Object.values(flat.findResources('AWS::Lambda::Function') as Record<string, Resource>)
      .filter((fn) => (fn.Properties.Tags as { Key: string }[] | undefined)?.some((t) => t.Key === routeTagKey));
  };

  test('every route function enforces decisions.md\'s limits (200 reads, 50 writes per 10 s) and may update counter items only', () => {
    for (const [routeId, id] of functionIdByRoute) {
      expect(envOf(id)).toMatchObject(rateLimitEnvironment(DEFAULT_RATE_LIMITS));
      const limiter = statementsOf(id).filter(isRateLimitStatement);
      // The two OAuth endpoints also count per address and client, on service-wide counters (docs/rate-limits.md).
      const oauth = routeId === 'registerOAuthClient' || routeId === 'oauthToken';
      expect([routeId, limiter]).toEqual([routeId, [rateLimitStatement(tableId(), ['WS#*#RATELIMIT#*', ...(oauth ? ['RATELIMIT#OAUTH#*'] : [])])]]);
    }
    // The workers are not behind the API: no limiter, no counter grant.
    for (const id of functionIdByWorker.values()) {
      expect(Object.keys(envOf(id)).filter((name) => name.startsWith('RATE_LIMIT_'))).toEqual([]);
      expect(statementsOf(id).filter(isRateLimitStatement)).toEqual([]);
    }
  });

  test('the HTTP API\'s stage throttles the whole API as a backstop: 1,000 requests/s, bursts of 2,000', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    expect(stageOf(template)).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: DEFAULT_STAGE_THROTTLE.rateLimit, ThrottlingBurstLimit: DEFAULT_STAGE_THROTTLE.burstLimit },
    });
    expect(DEFAULT_STAGE_THROTTLE).toEqual({ rateLimit: 1000, burstLimit: 2000 });
  });

  const fewRoutes = routes.filter((r) => r.id === 'getCustomer' || routesQueueingDeliveries.includes(r.id));
  const synthWith = (props: ConstructorParameters<typeof BillingStack>[2], extraContext: Record<string, unknown> = {}) =>
    stackTemplates(new BillingStack(testApp({ ...context, ...extraContext }), 'Test', { routes: fewRoutes, ...props }));

  test('configurable per stack: by props, or by CDK context; switched off, no counter grant at all', () => {
    const byProps = synthWith({ rateLimits: { perWorkspace: { reads: 1000, writes: 100, windowSeconds: 60 }, stage: { rateLimit: 50, burstLimit: 100 } } });
    for (const fn of routeFunctionsOf(byProps)) {
      expect(fn.Properties.Environment.Variables).toMatchObject({ RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_READS: '1000', RATE_LIMIT_WRITES: '100', RATE_LIMIT_WINDOW_SECONDS: '60' });
    }
    expect(stageOf(byProps[0]!.template).DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });

    const byContext = synthWith({}, { rateLimits: '{"reads": 400}', apiThrottle: { burstLimit: 300 } });
    expect(routeFunctionsOf(byContext)[0]!.Properties.Environment.Variables).toMatchObject({ RATE_LIMIT_READS: '400', RATE_LIMIT_WRITES: '50', RATE_LIMIT_WINDOW_SECONDS: '10' });
    expect(stageOf(byContext[0]!.template).DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 300 });

    const off = synthWith({ rateLimits: { perWorkspace: null } });
    for (const fn of routeFunctionsOf(off)) expect(fn.Properties.Environment.Variables).toMatchObject({ RATE_LIMIT_ENABLED: 'false' });
    expect(JSON.stringify(flattenTemplates(off).findResources('AWS::IAM::Policy'))).not.toContain('RATELIMIT');
  });

  test('synth refuses limits that are not positive whole numbers', () => {
    expect(() => synthWith({ rateLimits: { perWorkspace: { reads: 0, writes: 50, windowSeconds: 10 } } })).toThrow(/reads must be a positive whole number/);
    expect(() => synthWith({}, { rateLimits: { windowSeconds: 2.5 } })).toThrow(/windowSeconds must be a positive whole number/);
    expect(() => synthWith({}, { apiThrottle: { rateLimit: -1 } })).toThrow(/apiThrottle.rateLimit must be a positive number/);
  });
});

describe('HTTP API', () => {
  test('one Lambda authorizer: simple responses, cached a few seconds per Authorization header, invoked by this API only', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
    const authorizerFunction = functionIdByWorker.get(authorizerHandler.id)!;
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      IdentitySource: ['$request.header.Authorization'],
      EnableSimpleResponses: true,
      AuthorizerPayloadFormatVersion: '2.0',
      AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_SECONDS,
      AuthorizerUri: { 'Fn::Join': ['', Match.arrayWith([{ 'Fn::GetAtt': [authorizerFunction, 'Arn'] }])] },
    });
    expect(REVOCATION_BOUND_SECONDS).toBeLessThanOrEqual(10); // a revoked key stops within 10 s (issue 28): this cache is part of it
    const permission = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>)
      .filter((p) => JSON.stringify(p.Properties.FunctionName).includes(authorizerFunction));
    expect(permission).toHaveLength(1);
    expect(permission[0]!.Properties.Principal).toBe('apigateway.amazonaws.com');
    expect(JSON.stringify(permission[0]!.Properties.SourceArn)).toContain('/authorizers/');
  });

  test('the authorizer reads API keys (GetItem), records their use (UpdateItem), reads the signing key\'s public half, and knows its issuer', () => {
    const authorizerFunction = functionIdByWorker.get(authorizerHandler.id)!;
    const keyId = onlyId(template.findResources('AWS::KMS::Key', { Properties: { KeySpec: 'RSA_2048' } }));
    expect(actionsOf(authorizerFunction).filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:UpdateItem']);
    expect(statementsOf(authorizerFunction)).toContainEqual(expect.objectContaining({ Action: 'kms:GetPublicKey', Resource: { 'Fn::GetAtt': [keyId, 'Arn'] } }));
    const fn = template.findResources('AWS::Lambda::Function')[authorizerFunction] as Resource;
    expect(fn.Properties.Environment.Variables).toMatchObject({ TOKEN_SIGNING_KEY_ID: { 'Fn::GetAtt': [keyId, 'Arn'] }, PUBLIC_API_URL: expect.anything() });
    expect(fn.Properties.Environment.Variables.EXTERNAL_JWT_ISSUER).toBeUndefined(); // trusted only when configured
  });

  test('an asymmetric KMS key signs the tokens, retained with the stack; only the JWKS route (publish) and token routes (sign) may use it', () => {
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', Properties: { KeySpec: 'RSA_2048', KeyUsage: 'SIGN_VERIFY' } });
    for (const [routeId, functionId] of functionIdByRoute) {
      const kms = actionsOf(functionId).filter((a) => a === 'kms:Sign' || a === 'kms:GetPublicKey').sort();
      const use = routesUsingSigningKey[routeId];
      expect([routeId, kms]).toEqual([routeId, use === 'sign' ? ['kms:GetPublicKey', 'kms:Sign'] : use === 'publish' ? ['kms:GetPublicKey'] : []]);
    }
    expect(routesUsingSigningKey.getJwks).toBe('publish');
  });

  test('a rotated KMS key encrypts the payment providers\' secrets: the connect route alone encrypts, the routes calling Stripe and the due-work worker alone decrypt', () => {
    const keyId = onlyId(template.findResources('AWS::KMS::Key', { Properties: { EnableKeyRotation: true, KeySpec: Match.absent() } }));
    expect(template.findResources('AWS::KMS::Key')[keyId]).toMatchObject({ DeletionPolicy: 'Retain' });
    expect(Object.keys(routesUsingProviderSecrets).filter((id) => !functionIdByRoute.has(id))).toEqual([]);
    for (const [routeId, functionId] of functionIdByRoute) {
      const uses = statementsOf(functionId)
        .filter((s) => JSON.stringify(s.Resource).includes(keyId))
        .flatMap((s) => [s.Action].flat())
        .sort();
      const use = routesUsingProviderSecrets[routeId];
      expect([routeId, uses]).toEqual([routeId, use === 'seal' ? ['kms:Encrypt'] : use === 'open' ? ['kms:Decrypt'] : []]);
      const variables = (functions()[functionId]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      expect([routeId, 'PROVIDER_SECRETS_KEY_ID' in variables]).toEqual([routeId, use !== undefined]);
    }
    for (const [workerId, functionId] of functionIdByWorker) {
      const uses = statementsOf(functionId).filter((s) => JSON.stringify(s.Resource).includes(keyId)).flatMap((s) => [s.Action].flat());
      expect([workerId, uses]).toEqual([workerId, workerId === dueWorker.id ? ['kms:Decrypt'] : []]);
    }
  });

  test('the MCP function may invoke the functions of its tools\' routes and no other, and knows them by their names\' prefix', () => {
    const mcpFunction = functionIdByRoute.get('mcp')!;
    const invoke = statementsOf(mcpFunction).filter((st) => st.Action === 'lambda:InvokeFunction');
    expect(invoke).toHaveLength(1);
    const fnByRoute = (routeId: string) => functions()[functionIdByRoute.get(routeId)!]!;
    const prefix = functions()[mcpFunction]!.Properties.Environment.Variables[routeFunctionPrefixEnv] as string;
    expect(prefix).toBe(stack.stackName);
    // Each resource is the ARN of one tool route's function: the name the route's function is given, and no other.
    const toolRoutes = [...new Set(mcpTools.map((tool) => tool.route))];
    // arn:${Partition}:lambda:${Region}:${AccountId}:function:<name>, an Fn::Join whose last part ends in the name.
    const names = (invoke[0]!.Resource as { 'Fn::Join': [string, unknown[]] }[]).map((arn) => String(arn['Fn::Join'][1].at(-1)).split(':function:')[1]);
    expect(names.sort()).toEqual(toolRoutes.map((routeId) => routeFunctionName(prefix, routeId)).sort());
    for (const routeId of toolRoutes) expect(fnByRoute(routeId).Properties.FunctionName).toBe(routeFunctionName(prefix, routeId));
  });

  test('one route per entry, on the one HTTP API, behind the authorizer unless public, integrated with that route\'s function', () => {
    const apiId = onlyId(template.findResources('AWS::ApiGatewayV2::Api'));
    const authorizerId = onlyId(template.findResources('AWS::ApiGatewayV2::Authorizer'));
    const apiRoutes = Object.values(template.findResources('AWS::ApiGatewayV2::Route') as Record<string, Resource>);
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Resource>;
    expect(apiRoutes.map((r) => r.Properties.RouteKey).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());

    for (const route of routes) {
      const apiRoute = apiRoutes.find((r) => r.Properties.RouteKey === `${route.method} ${route.path}`)!;
      if (route.scope === 'public') {
        expect(apiRoute.Properties).toMatchObject({ ApiId: { Ref: apiId }, AuthorizationType: 'NONE' });
        expect(apiRoute.Properties.AuthorizerId).toBeUndefined();
      } else {
        expect(apiRoute.Properties).toMatchObject({ ApiId: { Ref: apiId }, AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
      }
      const fn = template.findResources('AWS::Lambda::Function')[functionIdByRoute.get(route.id)!] as Resource;
      expect(fn.Properties.Environment.Variables.PUBLIC_API_URL).toBeDefined(); // named in its 401 challenges
      const integrationId = apiRoute.Properties.Target['Fn::Join'][1][1].Ref as string;
      expect(integrations[integrationId]!.Properties).toMatchObject({
        ApiId: { Ref: apiId },
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [functionIdByRoute.get(route.id), 'Arn'] },
      });
    }
    expect(routes.filter((r) => r.scope === 'public').map((r) => r.path)).toContain('/.well-known/jwks.json');
  });

  test('API Gateway may invoke each route function and the authorizer, from this API only, and no other function', () => {
    const apiId = onlyId(template.findResources('AWS::ApiGatewayV2::Api'));
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Resource>)
      .filter((p) => p.Properties.Principal === 'apigateway.amazonaws.com');
    const invoked = permissions.map((p) => {
      expect(p.Properties.Action).toBe('lambda:InvokeFunction');
      expect(JSON.stringify(p.Properties.SourceArn)).toContain(JSON.stringify({ Ref: apiId }));
      return p.Properties.FunctionName['Fn::GetAtt'][0] as string;
    });
    expect(invoked.sort()).toEqual([...functionIdByRoute.values(), functionIdByWorker.get(authorizerHandler.id)!].sort());
  });

  test('outputs the API URL, the table name and the queues\' names', () => {
    template.hasOutput('ApiUrl', {});
    template.hasOutput('TableName', {});
    template.hasOutput('DeliveryQueueName', { Value: { 'Fn::GetAtt': [deliveryQueueId(), 'QueueName'] } });
    template.hasOutput('DeliveryDeadLetterQueueName', {});
    template.hasOutput('StreamFailureQueueName', {});
  });

  test('needs no context to synthesize, and trusts an external issuer only when configured', () => {
    const external = testApp({ ...context, jwtIssuer: 'https://idp.example.com/', jwtAudience: 'billing-api, other' });
    const externalTemplate = flattenTemplates(stackTemplates(new BillingStack(external, 'External')));
    externalTemplate.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ EXTERNAL_JWT_ISSUER: 'https://idp.example.com/', EXTERNAL_JWT_AUDIENCE: 'billing-api,other' }) },
    });
    const half = testApp({ ...context, jwtIssuer: 'https://idp.example.com/' });
    expect(() => new BillingStack(half, 'NoAudience')).toThrow(/"jwtIssuer" needs "jwtAudience"/);
  });
});

describe('table', () => {
  test('keys, indexes, stream, TTL, PITR, on-demand, from tableDefinition', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const keyAttributes = [
      tableDefinition.partitionKey,
      tableDefinition.sortKey,
      ...tableDefinition.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
    ];
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith(keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
      GlobalSecondaryIndexes: tableDefinition.globalIndexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: 'attributes' in i.projection
          ? { ProjectionType: i.projection.type, NonKeyAttributes: [...i.projection.attributes] }
          : { ProjectionType: i.projection.type },
      })),
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  test('is retained when the stack is deleted', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('events and webhooks', () => {
  test('two consumers read the table\'s stream: from the oldest record, ten batches per shard at once, bisecting, retrying, reporting', () => {
    for (const [settings, id] of [[streamHandler, streamHandlerId()], [usageStreamHandler, usageHandlerId()]] as const) {
      expect(streamMapping(id).Properties).toMatchObject({
        FunctionName: { Ref: id },
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: settings.batchSize,
        ParallelizationFactor: streamParallelization,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: settings.retryAttempts,
        MaximumRecordAgeInSeconds: settings.maxRecordAge.toSeconds(),
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      expect(streamMapping(id).Properties.MaximumRetryAttempts).toBeGreaterThan(0);
      // Both report to the same failure queue.
      expect(streamMapping(id).Properties.DestinationConfig).toEqual(streamMapping().Properties.DestinationConfig);
    }
    // DynamoDB Streams serves two readers per shard without throttling them: no third.
    expect(Object.values(template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>).filter((m) => m.Properties.EventSourceArn['Fn::GetAtt']?.[1] === 'StreamArn')).toHaveLength(2);
  });

  test('the usage consumer is fed usage events only, reads and writes the table and gsi3 (credit products), and queues nothing', () => {
    const patterns = (streamMapping(usageHandlerId()).Properties.FilterCriteria.Filters as { Pattern: string }[]).map((f) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([{ dynamodb: { NewImage: { _type: { S: ['usage_event'] } } } }, { dynamodb: { OldImage: { _type: { S: ['usage_event'] } } } }]);
    expect(actionsOf(usageHandlerId())).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', ...writeActions]));
    // It sends nothing but Lambda's failure reports (the stream failure queue).
    const sends = statementsOf(usageHandlerId()).filter((st) => [st.Action].flat().includes('sqs:SendMessage')).map((st) => st.Resource);
    expect(sends).toEqual([streamMapping(usageHandlerId()).Properties.DestinationConfig.OnFailure.Destination]);
    expect(functions()[usageHandlerId()]!.Properties.Timeout).toBe(usageStreamHandler.timeout.toSeconds());
  });

  test('a stream batch given up on is reported to its own encrypted SQS queue, kept 14 days', () => {
    const destination = streamMapping().Properties.DestinationConfig.OnFailure.Destination;
    const [queueId, attribute] = destination['Fn::GetAtt'] as [string, string];
    expect(attribute).toBe('Arn');
    expect(queues()[queueId]!.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 86400, SqsManagedSseEnabled: true });
    expect(queueId).not.toBe(deliveryQueueId());
    // Lambda sends the failure report with the function's role.
    const sends = statementsOf(streamHandlerId()).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    expect(sends.map((s) => s.Resource)).toContainEqual(destination);
  });

  test('the stream filter lets through exactly the changes of item types that produce events (EVENT_SOURCE_TYPES)', () => {
    expect(EVENT_SOURCE_TYPES.length).toBeGreaterThan(0);
    const patterns = (streamMapping().Properties.FilterCriteria.Filters as { Pattern: string }[]).map((f) => JSON.parse(f.Pattern));
    expect(patterns).toHaveLength(2);
    for (const image of ['NewImage', 'OldImage']) {
      const pattern = patterns.find((p) => image in p.dynamodb);
      expect([...pattern.dynamodb[image]._type.S].sort()).toEqual([...EVENT_SOURCE_TYPES].sort());
    }
    const record = (eventName: string, type: string) => {
      const item = { pk: { S: 'WS#w#X' }, _type: { S: type } };
      const images = { INSERT: { NewImage: item }, MODIFY: { NewImage: item, OldImage: item }, REMOVE: { OldImage: item } }[eventName];
      return { eventName, dynamodb: { Keys: { pk: item.pk }, ...images } };
    };
    const invokes = (r: unknown) => patterns.some((p) => matches(p, r));
    for (const type of EVENT_SOURCE_TYPES) {
      for (const eventName of ['INSERT', 'MODIFY', 'REMOVE']) expect(invokes(record(eventName, type))).toBe(true);
    }
    // What the pipeline writes itself never invokes it again.
    for (const own of ['event', 'webhook_message', 'webhook_delivery', 'webhook_attempt', 'webhook_endpoint']) {
      expect(EVENT_SOURCE_TYPES).not.toContain(own);
      for (const eventName of ['INSERT', 'MODIFY', 'REMOVE']) expect(invokes(record(eventName, own))).toBe(false);
    }
  });

  test('the delivery consumer reads the delivery queue in batches, reporting failed jobs one by one', () => {
    expect(mappingFrom({ 'Fn::GetAtt': [deliveryQueueId(), 'Arn'] }).Properties).toMatchObject({
      FunctionName: { Ref: consumerId() },
      BatchSize: deliveryConsumer.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(actionsOf(consumerId())).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
  });

  test('the delivery queue: encrypted, dead-letters a job after maxReceiveCount receives, to a queue kept 14 days', () => {
    const queue = queues()[deliveryQueueId()]!.Properties;
    expect(queue).toMatchObject({
      SqsManagedSseEnabled: true,
      RedrivePolicy: { maxReceiveCount: deliveryConsumer.maxReceiveCount, deadLetterTargetArn: { 'Fn::GetAtt': [expect.any(String), 'Arn'] } },
    });
    const [deadLetterId] = queue.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'] as [string];
    expect(deadLetterId).not.toBe(deliveryQueueId());
    expect(queues()[deadLetterId]!.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 86400, SqsManagedSseEnabled: true });
    // Every queue of the stack is encrypted, and refuses requests without TLS.
    template.allResourcesProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy') as Record<string, Resource>);
    for (const id of Object.keys(queues())) {
      const policy = policies.find((p) => (p.Properties.Queues as unknown[]).some((q) => JSON.stringify(q) === JSON.stringify({ Ref: id })));
      expect(JSON.stringify(policy?.Properties.PolicyDocument)).toContain('aws:SecureTransport');
    }
  });

  test('timeouts fit together: a batch of slow POSTs fits the consumer\'s timeout, which fits six times in the visibility timeout', () => {
    const consumer = functions()[consumerId()]!.Properties;
    const postMs = Number(consumer.Environment.Variables.WEBHOOK_TIMEOUT_MS);
    expect(postMs).toBe(webhookPostTimeout.toMilliseconds());
    expect(consumer.Timeout * 1000).toBeGreaterThan(deliveryConsumer.batchSize * postMs);
    const visibility = queues()[deliveryQueueId()]!.Properties.VisibilityTimeout as number;
    expect(visibility).toBe(deliveryQueueVisibility.toSeconds());
    expect(visibility).toBeGreaterThanOrEqual(6 * consumer.Timeout);
    // The stream handler has time for a full batch too (and a timed-out batch is bisected anyway).
    expect(functions()[streamHandlerId()]!.Properties.Timeout).toBeGreaterThanOrEqual(30);
  });

  test('both workers read and write the table', () => {
    for (const id of [streamHandlerId(), consumerId()]) {
      expect(actionsOf(id)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', ...writeActions]));
    }
  });

  test('only the routes queueing deliveries, the stream handler and the consumer may send to the delivery queue; the scheduled function to the due-work queue alone (the usage consumer: above)', () => {
    const scheduled = functionIdByWorker.get(scheduledHandler.id)!;
    const scheduledTargets = statementsOf(scheduled).filter((s) => [s.Action].flat().includes('sqs:SendMessage')).map((s) => s.Resource);
    expect(scheduledTargets).toEqual([{ 'Fn::GetAtt': [dueQueueId(), 'Arn'] }]);
    const senders = Object.keys(functions()).filter((id) => id !== scheduled && id !== usageHandlerId() && actionsOf(id).includes('sqs:SendMessage'));
    expect(senders.sort()).toEqual(queueingFunctionIds());
    const streamFailures = streamMapping().Properties.DestinationConfig.OnFailure.Destination;
    for (const id of senders) {
      const targets = statementsOf(id).filter((s) => [s.Action].flat().includes('sqs:SendMessage')).map((s) => s.Resource);
      const allowed = [{ 'Fn::GetAtt': [deliveryQueueId(), 'Arn'] }, ...(id === streamHandlerId() ? [streamFailures] : [])];
      expect(targets).toContainEqual({ 'Fn::GetAtt': [deliveryQueueId(), 'Arn'] });
      for (const target of targets) expect(allowed).toContainEqual(target);
    }
  });

  test(`${deliveryQueueUrlEnv} is set on exactly the functions that may queue deliveries`, () => {
    const withUrl = Object.entries(functions()).filter(([, fn]) => deliveryQueueUrlEnv in (fn.Properties.Environment?.Variables ?? {}));
    expect(withUrl.map(([id]) => id).sort()).toEqual(queueingFunctionIds());
    for (const [, fn] of withUrl) expect(fn.Properties.Environment.Variables[deliveryQueueUrlEnv]).toEqual({ Ref: deliveryQueueId() });
  });

  test('no function allows plain-http webhook endpoints (a local-runtime setting only)', () => {
    for (const fn of Object.values(functions())) expect(fn.Properties.Environment?.Variables ?? {}).not.toHaveProperty('WEBHOOKS_ALLOW_HTTP_LOOPBACK');
  });

  test('the routes queueing deliveries are in the route table (a rename fails synth, not deliveries)', () => {
    for (const id of routesQueueingDeliveries) expect(routes.map((r) => r.id)).toContain(id);
  });
});

/** What a route costs: its Lambda (function, log group, role, policy) and its API Gateway integration, route and permission. */
const ROUTE_RESOURCE_TYPES = [
  'AWS::Lambda::Function', 'AWS::Logs::LogGroup', 'AWS::IAM::Role', 'AWS::IAM::Policy',
  'AWS::ApiGatewayV2::Integration', 'AWS::ApiGatewayV2::Route', 'AWS::Lambda::Permission',
];
/** What these tests allow one stack: CloudFormation refuses a stack of more than 500 resources. */
const RESOURCE_BUDGET = 400;

/** A copy of `route` with its own id and path (and the same handler, so that it synthesizes), in `tag`'s area. */
const copyOf = (route: RouteDefinition, n: number, tag = route.tag): RouteDefinition => ({
  ...route, id: `${route.id}Copy${n}`, path: `/copy${n}${route.path}`, tag,
});
const synth = (routeList: readonly RouteDefinition[]): StackTemplate[] =>
  stackTemplates(new BillingStack(testApp(context), 'Test', { routes: routeList }));
/** The route ids of a template's functions, by the tag RouteFunction puts on them. */
const routeIdsIn = (t: Template): string[] =>
  Object.values(t.findResources('AWS::Lambda::Function') as Record<string, Resource>)
    .flatMap((fn) => (fn.Properties.Tags as { Key: string; Value: string }[] | undefined) ?? [])
    .filter((tag) => tag.Key === routeTagKey)
    .map((tag) => tag.Value)
    .sort();
const overBudget = (list: readonly StackTemplate[]): string[] =>
  list.filter((s) => resourceCount(s.template) >= RESOURCE_BUDGET).map((s) => `${s.name}: ${resourceCount(s.template)} resources`);

describe('stack layout: the routes in nested stacks, one per area (CloudFormation allows 500 resources per stack)', () => {
  test('the parent holds the table, the event pipeline, the scheduler, the API and its authorizer, and no route', () => {
    const parent = stacks[0]!.template;
    for (const type of ['AWS::DynamoDB::Table', 'AWS::ApiGatewayV2::Api', 'AWS::ApiGatewayV2::Authorizer', 'AWS::ApiGatewayV2::Stage', 'AWS::Events::Rule']) {
      parent.resourceCountIs(type, 1);
    }
    parent.resourceCountIs('AWS::SQS::Queue', 5);
    parent.resourceCountIs('AWS::Lambda::EventSourceMapping', 4);
    expect(routeIdsIn(parent)).toEqual([]);
    parent.resourceCountIs('AWS::Lambda::Function', WORKERS);
    parent.resourceCountIs('AWS::ApiGatewayV2::Route', 0);
    parent.resourceCountIs('AWS::ApiGatewayV2::Integration', 0);
    parent.resourceCountIs('AWS::CloudFormation::Stack', stack.routeStacks.length);
  });

  test('one nested stack per area, named Routes<Tag>, holding exactly that area\'s routes and nothing else', () => {
    const groups = groupRoutes(routes);
    expect(stacks.slice(1).map((s) => s.name)).toEqual(groups.map((g) => g.name));
    expect(stacks.map((s) => s.name)).toEqual(expect.arrayContaining(['RoutesInvoicingEntities', 'RoutesCustomers', 'RoutesWebhooks', 'RoutesOAuth']));
    expect(new Set(groups.map((g) => g.tag)).size).toBe(new Set(routes.map((r) => r.tag)).size);
    for (const [i, group] of groups.entries()) {
      const nested = stacks[i + 1]!.template;
      for (const route of group.routes) expect(route.tag).toBe(group.tag);
      expect(routeIdsIn(nested)).toEqual(group.routes.map((r) => r.id).sort());
      const types = Object.values(nested.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type);
      // Beside the routes, the area's Lambda alarms: errors and throttles per 10 functions (lib/monitoring.ts).
      const alarms = 2 * Math.ceil(group.routes.length / maxMetricsPerAlarm);
      expect(types.filter((type) => !ROUTE_RESOURCE_TYPES.includes(type))).toEqual(Array(alarms).fill('AWS::CloudWatch::Alarm'));
      for (const type of ROUTE_RESOURCE_TYPES) nested.resourceCountIs(type, group.routes.length);
    }
    // Every route in exactly one nested stack.
    expect(stacks.slice(1).flatMap((s) => routeIdsIn(s.template)).sort()).toEqual(routes.map((r) => r.id).sort());
    for (const [routeId, functionId] of functionIdByRoute) {
      const group = groups.find((g) => g.routes.some((r) => r.id === routeId))!;
      expect(functionId.startsWith(flatId(group.name, ''))).toBe(true);
    }
  });

  test(`the parent and every nested stack stay under ${RESOURCE_BUDGET} resources`, () => {
    expect(stacks.length).toBeGreaterThan(1);
    expect(overBudget(stacks)).toEqual([]);
  });

  test(`so does a table of 200+ routes with an area of 120, cut into stacks of ${maxRoutesPerStack} routes at most`, () => {
    const bulk = Array.from({ length: 120 }, (_, n) => copyOf(routes[n % routes.length]!, n, 'Bulk area'));
    const scaled = [...routes, ...routes.map((r, n) => copyOf(r, 1000 + n)), ...bulk];
    expect(scaled.length).toBeGreaterThanOrEqual(200);
    const scaledStacks = synth(scaled);
    expect(overBudget(scaledStacks)).toEqual([]);
    const sizes: number[] = [];
    for (let left = bulk.length; left > 0; left -= maxRoutesPerStack) sizes.push(Math.min(left, maxRoutesPerStack));
    expect(sizes.length).toBeGreaterThan(1);
    const bulkStacks = scaledStacks.filter((s) => s.name.startsWith('RoutesBulkArea'));
    expect(bulkStacks.map((s) => s.name)).toEqual(sizes.map((_, i) => (i === 0 ? 'RoutesBulkArea' : `RoutesBulkArea${i + 1}`)));
    expect(bulkStacks.map((s) => routeIdsIn(s.template).length)).toEqual(sizes);
    expect(bulkStacks.flatMap((s) => routeIdsIn(s.template)).sort()).toEqual(bulk.map((r) => r.id).sort());
    const flat = flattenTemplates(scaledStacks);
    flat.resourceCountIs('AWS::Lambda::Function', scaled.length + WORKERS);
    flat.resourceCountIs('AWS::ApiGatewayV2::Route', scaled.length);
  });

  test('a route added to an area changes no other area\'s stack, and none of its area\'s existing resources but the alarms watching it', () => {
    // Where a route added at the end of an area's routes.ts lands in the route table.
    const { tag } = routes[0]!;
    const last = routes.findLastIndex((r) => r.tag === tag);
    const after = synth([...routes.slice(0, last + 1), copyOf(routes[last]!, 1), ...routes.slice(last + 1)]);
    const changed = groupRoutes(routes).find((g) => g.tag === tag)!.name;
    expect(after.map((s) => [s.name, s.resourceId])).toEqual(stacks.map((s) => [s.name, s.resourceId]));
    for (const [i, { name, template: now }] of after.entries()) {
      const was = stacks[i]!.template.toJSON();
      if (name === changed) {
        for (const [id, resource] of Object.entries(was.Resources as Record<string, { Type: string }>)) {
          if (resource.Type !== 'AWS::CloudWatch::Alarm') expect(now.toJSON().Resources[id]).toEqual(resource);
        }
        expect(resourceCount(now)).toBe(Object.keys(was.Resources).length + ROUTE_RESOURCE_TYPES.length);
      } else if (i > 0) {
        expect(now.toJSON()).toEqual(was);
      } else {
        // The parent: the same resources; only the changed area's nested stack resource (its template's URL) differs.
        const changedId = stacks.find((s) => s.name === changed)!.resourceId!;
        const strip = (resources: Record<string, unknown>) => Object.fromEntries(Object.entries(resources).filter(([id]) => id !== changedId));
        expect(strip(now.toJSON().Resources)).toEqual(strip(was.Resources));
        expect(Object.keys(now.toJSON().Resources).sort()).toEqual(Object.keys(was.Resources).sort());
      }
    }
  });
});

describe('groupRoutes', () => {
  const route = (id: string, tag: string): RouteDefinition => ({ ...routes[0]!, id, method: 'GET', path: `/v1/${id}`, tag });

  test('one group per tag, in order of first appearance, named Routes<Tag in PascalCase>', () => {
    const groups = groupRoutes([route('a', 'Invoicing entities'), route('b', 'OAuth'), route('c', 'Invoicing entities'), route('d', 'credit-notes')]);
    expect(groups.map((g) => [g.name, g.tag, g.routes.map((r) => r.id)])).toEqual([
      ['RoutesInvoicingEntities', 'Invoicing entities', ['a', 'c']],
      ['RoutesOAuth', 'OAuth', ['b']],
      ['RoutesCreditNotes', 'credit-notes', ['d']],
    ]);
  });

  test('a large area is cut in route-table order; a route appended to it moves none of the others', () => {
    const area = Array.from({ length: 7 }, (_, n) => route(`r${n}`, 'Quotes'));
    const groups = groupRoutes([route('x', 'Other'), ...area], 3);
    expect(groups.map((g) => [g.name, g.routes.map((r) => r.id)])).toEqual([
      ['RoutesOther', ['x']],
      ['RoutesQuotes', ['r0', 'r1', 'r2']],
      ['RoutesQuotes2', ['r3', 'r4', 'r5']],
      ['RoutesQuotes3', ['r6']],
    ]);
    const grown = groupRoutes([route('x', 'Other'), ...area, route('r7', 'Quotes')], 3);
    expect(grown.slice(0, 3)).toEqual(groups.slice(0, 3));
    expect(grown.slice(3).map((g) => [g.name, g.routes.map((r) => r.id)])).toEqual([['RoutesQuotes3', ['r6', 'r7']]]);
  });

  test('refuses what would clash: duplicate ids or routes, two tags with one name, a tag taking a chunk\'s name', () => {
    expect(() => groupRoutes([route('a', 'X'), route('a', 'Y')])).toThrow(/duplicate id a/);
    expect(() => groupRoutes([route('a', 'X'), { ...route('b', 'Y'), path: '/v1/a' }])).toThrow(/duplicate route GET \/v1\/a/);
    expect(() => groupRoutes([route('a', 'Credit notes'), route('b', 'credit-notes')])).toThrow(/would share the stack RoutesCreditNotes/);
    expect(() => groupRoutes([route('a', 'X'), route('b', 'X'), route('c', 'X 2')], 1)).toThrow(/two groups would be named RoutesX2/);
    expect(() => groupRoutes([route('a', '--')])).toThrow(/no letter or digit/);
  });
});
