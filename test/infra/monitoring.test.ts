import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Key } from 'aws-cdk-lib/aws-kms';
import { routes } from '../../functions/routes';
import { BillingStack, type BillingStackProps } from '../../lib/billing-stack';
import { deliveryConsumer, streamHandler, usageStreamHandler, workerTagKey } from '../../lib/event-pipeline';
import { authorizerHandler } from '../../lib/identity';
import { iteratorAgeThreshold, maxMetricsPerAlarm } from '../../lib/monitoring';
import { routeTagKey } from '../../lib/route-function';
import { groupRoutes } from '../../lib/routes-stack';
import { dueWorker, scheduledHandler } from '../../lib/scheduler';
import { BUSINESS_METRICS } from '../../shared/observability/business-metrics';
import { flattenTemplates, stackTemplates, testApp } from './stack-templates';

/**
 * What tells someone when the deployed stack breaks (docs/operations.md): the alarm topic and its subscription, the
 * alarms (stream lag, DynamoDB throttling, every function's errors and throttles), the dashboard, and the workers'
 * concurrency caps. The failure-queue, 5xx and quarantine alarms are in operations.test.ts.
 */

type Json = Record<string, any>;

/** The stack, flattened, and the stack its props' resources (a key) were made in. */
const synthWithShared = (props?: (scope: Stack) => BillingStackProps, context: Record<string, unknown> = {}) => {
  const app = testApp(context);
  // Only when the props need it: an empty stack is a synth warning.
  const shared = props && new Stack(app, 'Shared');
  return { template: flattenTemplates(stackTemplates(new BillingStack(app, 'Test', shared && props!(shared)))), shared };
};
const synth = (props?: (scope: Stack) => BillingStackProps, context?: Record<string, unknown>): Template => synthWithShared(props, context).template;
const resources = (t: Template, type: string) => t.findResources(type) as Record<string, Json>;
const onlyOne = (found: Record<string, Json>): [string, Json] => {
  expect(Object.keys(found)).toHaveLength(1);
  return Object.entries(found)[0]!;
};

let template: Template;
/** With a key, an email address and a worker's concurrency as properties; and the same as context. */
let withProps: ReturnType<typeof synthWithShared>;
let withContext: Template;
/** Function logical id → its route or worker id. */
const functionNames = new Map<string, string>();
beforeAll(() => {
  template = synth();
  withProps = synthWithShared((shared) => ({
    encryptionKey: new Key(shared, 'Key', { enableKeyRotation: true }), alarmEmail: 'ops@example.com', workerConcurrency: { deliveries: 50 },
  }));
  withContext = synth(undefined, { alarmEmail: 'ops@example.com', workerConcurrency: '{"dueWork": 4}' });
  for (const [id, fn] of Object.entries(resources(template, 'AWS::Lambda::Function'))) {
    const tag = (fn.Properties.Tags as { Key: string; Value: string }[] | undefined)?.find((t) => t.Key === routeTagKey || t.Key === workerTagKey);
    if (tag) functionNames.set(id, tag.Value);
    else untagged.push(id);
  }
});

/** Functions that are neither a route nor a worker: CDK's own, which run at deploy time only. */
const untagged: string[] = [];
test('the only functions that are neither a route nor a worker are CDK\'s deploy-time handler of the dashboard\'s files', () => {
  expect(untagged).toHaveLength(1);
  expect(untagged[0]).toMatch(/^CustomCDKBucketDeployment/);
});

const alarms = () => Object.entries(resources(template, 'AWS::CloudWatch::Alarm'));
const alarmNamed = (name: string): Json => onlyOne(Object.fromEntries(alarms().filter(([id]) => id.startsWith(`Monitoring${name}`))))[1].Properties;
/** The functions (logical ids) whose `metricName` an alarm watches. */
const watchedFunctions = (alarm: Json, metricName: string): string[] => {
  const stats = alarm.Metrics ? alarm.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => ({ ...m.MetricStat.Metric })) : [alarm];
  return stats.filter((m: Json) => m.MetricName === metricName && m.Namespace === 'AWS/Lambda').map((m: Json) => m.Dimensions[0].Value.Ref);
};
const functionId = (name: string) => [...functionNames].find(([, n]) => n === name)![0];
const tableRef = () => ({ Ref: onlyOne(resources(template, 'AWS::DynamoDB::Table'))[0] });

describe('the alarm topic', () => {
  test('is the stack\'s own by default, reachable over TLS only, its ARN an output; every alarm notifies it', () => {
    const [topicId] = onlyOne(resources(template, 'AWS::SNS::Topic'));
    const [, policy] = onlyOne(resources(template, 'AWS::SNS::TopicPolicy'));
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    expect(template.toJSON().Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
    for (const [id, alarm] of alarms()) expect([id, alarm.Properties.AlarmActions]).toEqual([id, [{ Ref: topicId }]]);
    expect(resources(template, 'AWS::SNS::Subscription')).toEqual({});
  });

  test('is encrypted with the stack\'s key, which lets CloudWatch publish under it', () => {
    const [, topic] = onlyOne(resources(withProps.template, 'AWS::SNS::Topic'));
    expect(JSON.stringify(topic.Properties.KmsMasterKeyId)).toContain('Key');
    const [, key] = onlyOne(Template.fromStack(withProps.shared!).findResources('AWS::KMS::Key'));
    const forCloudWatch = (key.Properties.KeyPolicy.Statement as Json[]).filter((s) => s.Principal?.Service === 'cloudwatch.amazonaws.com');
    expect(forCloudWatch.flatMap((s) => s.Action).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey*']);
  });

  test('an email address (property or context `alarmEmail`) subscribes to it; a malformed one fails the synth', () => {
    for (const t of [withProps.template, withContext]) {
      const [, subscription] = onlyOne(resources(t, 'AWS::SNS::Subscription'));
      expect(subscription.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: onlyOne(resources(t, 'AWS::SNS::Topic'))[0] } });
    }
    expect(() => synth(() => ({ alarmEmail: 'ops at example' }))).toThrow('alarmEmail must be an email address');
  });
});

describe('alarms', () => {
  test(`stream iterator age, per consumer: its oldest record over ${iteratorAgeThreshold.toMinutes()} minutes`, () => {
    for (const [name, worker] of [['StreamIteratorAge', streamHandler.id], ['UsageStreamIteratorAge', usageStreamHandler.id]]) {
      const alarm = alarmNamed(name!);
      const [stat] = alarm.Metrics.map((m: Json) => m.MetricStat);
      expect(stat).toMatchObject({ Stat: 'Maximum', Metric: { MetricName: 'IteratorAge', Namespace: 'AWS/Lambda' } });
      expect(stat.Metric.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: functionId(worker!) } }]);
      expect([alarm.Threshold, alarm.ComparisonOperator]).toEqual([300_000, 'GreaterThanThreshold']);
    }
  });

  test('DynamoDB: any throttled request on the table (every operation, its indexes\' included), any index write throttle event', () => {
    const query = (name: string) => alarmNamed(name).Metrics[0].Expression['Fn::Join'][1];
    expect(query('TableThrottledRequests')).toEqual([
      'SELECT SUM(ThrottledRequests) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = \'', tableRef(), '\'',
    ]);
    expect(query('IndexWriteThrottleEvents')).toEqual([
      'SELECT SUM(WriteThrottleEvents) FROM SCHEMA("AWS/DynamoDB", GlobalSecondaryIndexName, TableName) WHERE TableName = \'', tableRef(), '\'',
    ]);
    for (const name of ['TableThrottledRequests', 'IndexWriteThrottleEvents']) expect(alarmNamed(name).Threshold).toBe(0);
  });

  test.each(['Errors', 'Throttles'])('Lambda %s: every function is watched by exactly one alarm of its group, of at most 10 functions', (metricName) => {
    const watching = new Map<string, string[]>();
    for (const [id, alarm] of alarms()) {
      const watched = watchedFunctions(alarm.Properties, metricName);
      if (watched.length === 0) continue;
      expect(watched.length).toBeLessThanOrEqual(maxMetricsPerAlarm);
      expect([id, alarm.Properties.Threshold, alarm.Properties.ComparisonOperator]).toEqual([id, 0, 'GreaterThanThreshold']);
      for (const fn of watched) watching.set(fn, [...(watching.get(fn) ?? []), id]);
    }
    expect([...watching.keys()].sort()).toEqual([...functionNames.keys()].sort());
    for (const [fn, ids] of watching) expect([functionNames.get(fn), ids.length]).toEqual([functionNames.get(fn), 1]);

    // A route's alarm sits in its area's stack; an area's functions share their alarms.
    for (const group of groupRoutes(routes)) {
      const ids = new Set(group.routes.map((route) => watching.get(functionId(route.id))![0]!));
      expect([...ids].every((id) => id.startsWith(`${group.name}.`))).toBe(true);
      expect(ids.size).toBe(Math.ceil(group.routes.length / maxMetricsPerAlarm));
    }
    const workerAlarm = (name: string) => watching.get(functionId(name))![0]!;
    expect(workerAlarm(scheduledHandler.id)).toBe(workerAlarm(dueWorker.id));
    const separate = [streamHandler.id, deliveryConsumer.id, dueWorker.id, authorizerHandler.id].map(workerAlarm);
    expect(new Set(separate).size).toBe(4);
  });
  test('routeFunctionAlarms false (property or context) drops the route functions\' alarms and keeps the workers\'; a value not true or false fails the synth', () => {
    const lambdaAlarmFunctions = (t: Template) => Object.values(resources(t, 'AWS::CloudWatch::Alarm'))
      .flatMap((alarm) => ['Errors', 'Throttles'].flatMap((metric) => watchedFunctions(alarm.Properties, metric)));
    const routeFunctions = [...functionNames].filter(([, name]) => routes.some((route) => route.id === name)).map(([id]) => id);
    const workerFunctions = [...functionNames.keys()].filter((id) => !routeFunctions.includes(id));
    expect(lambdaAlarmFunctions(template)).toEqual(expect.arrayContaining(routeFunctions));
    // As a property without synthWithShared's stack for shared resources (none needed: an empty stack is a warning).
    const asProperty = flattenTemplates(stackTemplates(new BillingStack(testApp(), 'Test', { routeFunctionAlarms: false })));
    for (const off of [asProperty, synth(undefined, { routeFunctionAlarms: 'false' })]) {
      const watched = lambdaAlarmFunctions(off);
      expect(watched.filter((id) => routeFunctions.includes(id))).toEqual([]);
      expect([...new Set(watched)].sort()).toEqual(workerFunctions.sort());
    }
    expect(() => synth(undefined, { routeFunctionAlarms: 'no' })).toThrow(/"routeFunctionAlarms" must be true or false/);
  });
});

describe('the dashboard', () => {
  /** Each graph's lines: `[namespace, metric, dimension, value, …]`, or a query's `expression`; references as `ref:<id>`. */
  let lines: (string | { expression?: string })[][];
  beforeAll(() => {
    const [, dashboard] = onlyOne(resources(template, 'AWS::CloudWatch::Dashboard'));
    const reference = (part: Json) => (part.Ref ? `ref:${part.Ref}` : `ref:${part['Fn::GetAtt'].join('.')}`);
    const body = (dashboard.Properties.DashboardBody['Fn::Join'][1] as (string | Json)[]).map((part) => (typeof part === 'string' ? part : reference(part))).join('');
    lines = (JSON.parse(body).widgets as Json[]).flatMap((w) => w.properties.metrics ?? []);
  });
  const queries = () => lines.flatMap((line) => line.flatMap((part) => (typeof part === 'object' && part.expression ? [part.expression] : [])));
  const metricsOf = (dimensionValue: string) => lines.filter((line) => line.includes(dimensionValue)).map((line) => `${line[0]} ${line[1]}`);

  test('shows every business metric of namespace BillingApi, the amount collected per currency', () => {
    for (const metric of [...Object.values(BUSINESS_METRICS), 'QuarantinedRecords']) expect(queries()).toContainEqual(expect.stringMatching(new RegExp(`^SELECT SUM\\(${metric}\\) FROM "BillingApi"`)));
    expect(queries()).toContain(`SELECT SUM(${BUSINESS_METRICS.amountCollected}) FROM "BillingApi" GROUP BY currency`);
  });

  test('shows the API\'s requests, errors and latency, each worker, the account\'s concurrency, the table, the stream and every queue', () => {
    const api = `ref:${onlyOne(resources(template, 'AWS::ApiGatewayV2::Api'))[0]}`;
    expect(new Set(metricsOf(api))).toEqual(new Set(['Count', '4xx', '5xx', 'Latency', 'IntegrationLatency'].map((m) => `AWS/ApiGateway ${m}`)));
    for (const worker of [streamHandler.id, usageStreamHandler.id, deliveryConsumer.id, scheduledHandler.id, dueWorker.id, authorizerHandler.id]) {
      expect(new Set(metricsOf(`ref:${functionId(worker)}`))).toEqual(new Set([
        'ConcurrentExecutions', 'Errors', 'Throttles', 'Duration', ...((worker === streamHandler.id || worker === usageStreamHandler.id) ? ['IteratorAge'] : []),
      ].map((m) => `AWS/Lambda ${m}`)));
    }
    expect(lines).toContainEqual(['AWS/Lambda', 'ConcurrentExecutions', expect.objectContaining({ stat: 'Maximum' })]); // the account's
    const table = `ref:${tableRef().Ref}`;
    expect(metricsOf(table).sort()).toEqual(['AWS/DynamoDB ConsumedReadCapacityUnits', 'AWS/DynamoDB ConsumedWriteCapacityUnits']);
    const ofTable = queries().filter((q) => q.includes(`WHERE TableName = '${table}'`)).map((q) => /SELECT \w+\((\w+)\)/.exec(q)![1]).sort();
    expect(ofTable).toEqual(['ReadThrottleEvents', 'SuccessfulRequestLatency', 'ThrottledRequests', 'WriteThrottleEvents']);
    for (const queue of Object.keys(resources(template, 'AWS::SQS::Queue'))) expect(metricsOf(`ref:${queue}.QueueName`).length).toBeGreaterThan(0);
  });
});

describe('worker concurrency', () => {
  const caps = (t: Template) => {
    const byFunction = new Map<string, number | undefined>();
    for (const mapping of Object.values(resources(t, 'AWS::Lambda::EventSourceMapping'))) {
      byFunction.set(mapping.Properties.FunctionName.Ref, mapping.Properties.ScalingConfig?.MaximumConcurrency);
    }
    return byFunction;
  };

  test('the delivery consumer and the due-work worker are capped by their event sources, reserving nothing', () => {
    const byFunction = caps(template);
    expect(byFunction.get(functionId(deliveryConsumer.id))).toBe(deliveryConsumer.maxConcurrency);
    expect(byFunction.get(functionId(dueWorker.id))).toBe(dueWorker.maxConcurrency);
    for (const fn of Object.values(resources(template, 'AWS::Lambda::Function'))) expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  test('a property or the context `workerConcurrency` changes them; a value SQS would refuse fails the synth', () => {
    const fromProps = caps(withProps.template);
    expect([fromProps.get(functionId(deliveryConsumer.id)), fromProps.get(functionId(dueWorker.id))]).toEqual([50, dueWorker.maxConcurrency]);
    const fromContext = caps(withContext);
    expect([fromContext.get(functionId(deliveryConsumer.id)), fromContext.get(functionId(dueWorker.id))]).toEqual([deliveryConsumer.maxConcurrency, 4]);
    expect(() => synth(() => ({ workerConcurrency: { deliveries: 1 } }))).toThrow('workerConcurrency.deliveries must be a whole number from 2 to 1000');
  });
});
