import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { routes } from '../../functions/routes';
import { BillingStack, type BillingStackProps } from '../../lib/billing-stack';
import { deliveryConsumer, streamHandler, workerTagKey } from '../../lib/event-pipeline';
import { accessLogFormat } from '../../lib/monitoring';
import { routeTagKey } from '../../lib/route-function';
import { dueWorker, scheduledHandler } from '../../lib/scheduler';
import { routeTableAccess, workerTableAccess, type TableAccess } from '../../lib/table-access';
import { LEASE_PARTITION, SCHEDULE_PARTITION } from '../../shared/db/keys';
import { flattenTemplates, stackTemplates, testApp } from './stack-templates';

type Json = Record<string, any>;
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

/** The stack, flattened; `props` may make what it passes (a key, a topic) in a stack of their own. */
const synth = (props?: (scope: Stack) => BillingStackProps): Template => {
  const app = testApp();
  return flattenTemplates(stackTemplates(new BillingStack(app, 'Test', props?.(new Stack(app, 'Shared')))));
};
const resources = (t: Template, type: string) => t.findResources(type) as Record<string, Json>;
const onlyId = (found: Record<string, unknown>) => {
  expect(Object.keys(found)).toHaveLength(1);
  return Object.keys(found)[0]!;
};

let template: Template;
/** Function logical id → its tag (`billing:route` or `billing:worker` value). */
const functionIds = new Map<string, string>();
beforeAll(() => {
  template = synth();
  for (const [id, fn] of Object.entries(resources(template, 'AWS::Lambda::Function'))) {
    // CDK's deploy-time handler of the dashboard's files is neither (test/infra/monitoring.test.ts checks it is the only one).
    const tag = (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === routeTagKey || t.Key === workerTagKey);
    if (tag) functionIds.set(tag.Value, id);
  }
});

/**
 * The service's functions (routes and workers). CDK's deploy-time handler of the dashboard's files (BucketDeployment)
 * is CDK's own, with its managed basic role and no tracing: it runs once per deploy, not per request.
 */
const ourFunctions = () => Object.entries(resources(template, 'AWS::Lambda::Function')).filter(([id]) => [...functionIds.values()].includes(id));

const tableId = () => onlyId(resources(template, 'AWS::DynamoDB::Table'));
const tableArn = () => ({ 'Fn::GetAtt': [tableId(), 'Arn'] });
const indexArn = (name: string) => ({ 'Fn::Join': ['', [tableArn(), `/index/${name}`]] });

/** Every statement of the policies attached to a function's role. */
const statementsOf = (functionId: string): Statement[] => {
  const fn = resources(template, 'AWS::Lambda::Function')[functionId]!;
  const role = JSON.stringify({ Ref: fn.Properties.Role['Fn::GetAtt'][0] });
  return Object.values(resources(template, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
};
const actions = (s: Statement) => [s.Action].flat();
const targets = (s: Statement) => [s.Resource].flat().map((r) => JSON.stringify(r));

/**
 * A statement on some items only, conditioned on their partition keys: the rate limiter's counters
 * (lib/rate-limits.ts), the scheduled run's lease (lib/scheduler.ts).
 */
const isLeadingKeysStatement = (s: Record<string, unknown>): boolean => JSON.stringify(s.Condition ?? {}).includes('dynamodb:LeadingKeys');

/**
 * What a function may do with the table, as (action, resource) pairs read back from its policies; the statements
 * conditioned on leading keys apart (test/infra/billing-stack.test.ts checks the rate limiter's, below the lease's).
 */
const tableGrants = (functionId: string): string[] =>
  statementsOf(functionId)
    .filter((s) => actions(s).some((a) => a.startsWith('dynamodb:')) && !actions(s).includes('dynamodb:GetRecords') && !isLeadingKeysStatement(s))
    .flatMap((s) => actions(s).flatMap((a) => targets(s).map((r) => `${a} ${r}`)))
    .sort();
const expectedGrants = (access: TableAccess): string[] =>
  [
    ...access.actions.map((a) => `${a} ${JSON.stringify(tableArn())}`),
    ...access.indexes.map((i) => `dynamodb:Query ${JSON.stringify(indexArn(i))}`),
    ...(access.scannedIndexes ?? []).map((i) => `dynamodb:Scan ${JSON.stringify(indexArn(i))}`),
  ].sort();

describe('least privilege', () => {
  test.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s: exactly its declared actions and indexes, no Scan', (_, route) => {
    const grants = tableGrants(functionIds.get(route.id)!);
    expect(grants).toEqual(expectedGrants(routeTableAccess(route)));
    expect(grants.join('\n')).not.toMatch(/dynamodb:Scan|index\/\*|BatchWriteItem/);
  });

  test('GET routes only read (their one write, the rate-limit counter, is a separate conditioned statement); the others write', () => {
    for (const route of routes) {
      const { actions: granted } = routeTableAccess(route);
      const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'].filter((a) => granted.includes(a));
      // The OAuth browser flow's GETs declare `writes`: they keep the pending sign-in in the table.
      expect([route.id, writes.length]).toEqual([route.id, route.method === 'GET' && !route.writes ? 0 : 3]);
    }
  });

  test('a list route reads the list index unless it declares otherwise; other routes query no index unless declared', () => {
    expect(routeTableAccess({ method: 'GET', response: { status: 200, schema: {}, list: true } }).indexes).toEqual(['gsi1']);
    expect(routeTableAccess({ method: 'GET', response: { status: 200, schema: {} } }).indexes).toEqual([]);
    expect(routeTableAccess({ method: 'GET', response: { status: 200, schema: {}, list: true }, indexes: ['gsi3'] }).indexes).toEqual(['gsi3']);
  });

  test.each([streamHandler.id, deliveryConsumer.id, scheduledHandler.id, dueWorker.id] as const)('worker %s: exactly its declared access', (worker) => {
    expect(tableGrants(functionIds.get(worker)!)).toEqual(expectedGrants(workerTableAccess[worker]));
  });

  test.each([
    ['its lease', LEASE_PARTITION, ['dynamodb:DeleteItem', 'dynamodb:PutItem']],
    ['its cursor', SCHEDULE_PARTITION, ['dynamodb:GetItem', 'dynamodb:PutItem']],
  ])('the scheduled run alone reaches %s item (%s), with %j only', (_, partition, granted) => {
    const statementsOn = (id: string) => statementsOf(id).filter((s) => JSON.stringify(s).includes(partition));
    const [statement, ...others] = statementsOn(functionIds.get(scheduledHandler.id)!);
    expect(others).toEqual([]);
    expect(actions(statement!).sort()).toEqual(granted);
    expect(targets(statement!)).toEqual([JSON.stringify(tableArn())]);
    expect((statement as Json).Condition).toEqual({ 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [partition] } });
    for (const [name, id] of functionIds) if (name !== scheduledHandler.id) expect([name, statementsOn(id)]).toEqual([name, []]);
  });

  test('the stream handler reads its own stream, named, and no other; nothing gets dynamodb:ListStreams on *', () => {
    const streamArn = JSON.stringify({ 'Fn::GetAtt': [tableId(), 'StreamArn'] });
    const reads = statementsOf(functionIds.get(streamHandler.id)!).filter((s) => actions(s).includes('dynamodb:GetRecords'));
    expect(reads).toHaveLength(1);
    expect(actions(reads[0]!).sort()).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
    expect(targets(reads[0]!)).toEqual([streamArn]);
  });

  test('the only statements on `*` are X-Ray\'s (which has no resource-level permissions), one per function', () => {
    for (const id of functionIds.values()) {
      const wildcard = statementsOf(id).filter((s) => targets(s).includes('"*"'));
      expect(wildcard.flatMap(actions).sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    }
  });

  test('every function has its own role, with no managed policy, writing only to its own log group', () => {
    const roles = resources(template, 'AWS::IAM::Role');
    for (const [id, fn] of ourFunctions()) {
      const role = roles[fn.Properties.Role['Fn::GetAtt'][0]]!;
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      const logs = statementsOf(id).filter((s) => actions(s).some((a) => a.startsWith('logs:')));
      expect(logs.flatMap(targets)).toEqual([JSON.stringify({ 'Fn::GetAtt': [fn.Properties.LoggingConfig.LogGroup.Ref, 'Arn'] })]);
    }
  });
});

describe('production defaults', () => {
  test('every function is traced with X-Ray', () => {
    for (const [, fn] of ourFunctions()) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
  });

  test('the table is retained with the stack and protected from deletion', () => {
    const table = resources(template, 'AWS::DynamoDB::Table')[tableId()]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  test('the API stage writes one JSON object per request to its own log group', () => {
    const stage = Object.values(resources(template, 'AWS::ApiGatewayV2::Stage'))[0]!;
    const settings = stage.Properties.AccessLogSettings;
    const format = JSON.parse(settings.Format);
    expect(format).toEqual(accessLogFormat);
    // A Lambda authorizer's context is `$context.authorizer.<key>` (`claims` is the JWT authorizer's).
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status', workspace: '$context.authorizer.workspace_id' });
    const [logGroupId] = settings.DestinationArn['Fn::GetAtt'];
    expect(resources(template, 'AWS::Logs::LogGroup')[logGroupId]!.Properties.RetentionInDays).toBe(30);
  });

  test('alarms: a message in any failure queue, a 5xx rate above 1 %, any quarantined record (the others: monitoring.test.ts)', () => {
    const alarms = Object.entries(resources(template, 'AWS::CloudWatch::Alarm'))
      .filter(([id]) => /^Monitoring(StreamFailures|DeliveryDeadLetters|DueWorkDeadLetters|ServerErrorRate|QuarantinedRecords)Alarm/.test(id))
      .map(([, a]) => a.Properties);
    expect(alarms).toHaveLength(5);
    const queues = resources(template, 'AWS::SQS::Queue');
    const onQueue = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(onQueue.map((a) => [a.Threshold, a.ComparisonOperator, a.TreatMissingData])).toEqual(Array(3).fill([0, 'GreaterThanThreshold', 'notBreaching']));
    const alarmedQueues = onQueue.map((a) => a.Dimensions[0].Value['Fn::GetAtt'][0]).sort();
    const mapping = Object.values(resources(template, 'AWS::Lambda::EventSourceMapping')).find((m) => m.Properties.DestinationConfig)!;
    // Every dead-letter queue of a redrive policy: the webhook deliveries' and the due work's.
    const redriven = Object.values(queues).filter((q) => q.Properties.RedrivePolicy).map((q) => q.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0]);
    expect(redriven).toHaveLength(2);
    expect(alarmedQueues).toEqual([mapping.Properties.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0], ...redriven].sort());

    const expressions = alarms.flatMap((a) => (a.Metrics ?? []).filter((m: Json) => m.Expression));
    const rate = alarms.find((a) => a.Metrics?.some((m: Json) => m.Expression?.includes('errors')))!;
    expect(rate.Threshold).toBe(1);
    expect(rate.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => m.MetricStat.Metric.MetricName).sort()).toEqual(['5xx', 'Count']);
    expect(expressions.map((m: Json) => m.Expression)).toContain('SELECT SUM(QuarantinedRecords) FROM "BillingApi"');
    // No alarm topic given: the stack's own.
    const topic = onlyId(resources(template, 'AWS::SNS::Topic'));
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topic }]);
  });
});

describe('stack properties', () => {
  let custom: Template;
  beforeAll(() => {
    custom = synth((shared) => ({
      logRetention: RetentionDays.ONE_YEAR,
      encryptionKey: new Key(shared, 'Key', { enableKeyRotation: true }),
      alarmTopic: new Topic(shared, 'Alarms'),
    }));
  });

  test('log retention applies to every log group, the access log included', () => {
    expect(Object.keys(resources(custom, 'AWS::Logs::LogGroup'))).toHaveLength(routes.length + 6 + 1); // routes, six workers (authorizer included), the access log
    custom.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 365 });
  });

  test('a KMS key encrypts the table, every queue and every log group', () => {
    const keyArn = (value: unknown) => JSON.stringify(value).includes('Key');
    const table = Object.values(resources(custom, 'AWS::DynamoDB::Table'))[0]!.Properties;
    expect(table.SSESpecification).toMatchObject({ SSEEnabled: true, SSEType: 'KMS' });
    expect(keyArn(table.SSESpecification.KMSMasterKeyId)).toBe(true);
    for (const queue of Object.values(resources(custom, 'AWS::SQS::Queue'))) expect(keyArn(queue.Properties.KmsMasterKeyId)).toBe(true);
    for (const group of Object.values(resources(custom, 'AWS::Logs::LogGroup'))) expect(keyArn(group.Properties.KmsKeyId)).toBe(true);
  });

  test('every alarm notifies the alarm topic given, and the stack makes no topic of its own', () => {
    const alarms = Object.values(resources(custom, 'AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThan(5);
    for (const alarm of alarms) expect(JSON.stringify(alarm.Properties.AlarmActions)).toContain('Alarms');
    expect(resources(custom, 'AWS::SNS::Topic')).toEqual({});
  });
});
