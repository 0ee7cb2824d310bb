import { Duration, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Subscription, SubscriptionProtocol, Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { chunksOf } from '../shared/concurrency';
import { METRICS_NAMESPACE } from '../shared/observability/names';

/**
 * One JSON object per API request (HTTP API `$context` variables): what docs/operations.md calls the access log.
 * `workspace` and `credential` come from the Lambda authorizer's context (functions/authorizer/authorize.ts), which
 * `$context.authorizer.<key>` reads; `integrationError` says why a Lambda integration failed (timeout…).
 */
export const accessLogFormat = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
  workspace: '$context.authorizer.workspace_id',
  credential: '$context.authorizer.credential',
  userAgent: '$context.identity.userAgent',
} as const;

/** The 5xx alarm: above this share of requests (in percent) over one period. */
export const serverErrorRateThresholdPercent = 1;
/**
 * The stream alarm: its oldest record waited longer than this. Events, webhooks and metered usage (applied to its
 * buckets from the stream) lag by as much; normal is about a second. The stream keeps records 24 h, after which they
 * are lost: five minutes leaves a day to act.
 */
export const iteratorAgeThreshold = Duration.minutes(5);
/** CloudWatch takes at most 10 metrics in one alarm: a function group's alarm covers at most this many functions. */
export const maxMetricsPerAlarm = 10;
const alarmPeriod = Duration.minutes(5);

/** Functions watched together: an alarm on their errors and one on their throttles (per 10 functions). */
export interface FunctionGroup {
  /** Names the group's alarms (`<name>LambdaErrors`, …) and says which functions they watch. */
  name: string;
  functions: readonly IFunction[];
  /** Where its alarms go (the stack holding the functions, so no reference crosses stacks). Default: Monitoring. */
  scope?: Construct;
}

export interface MonitoringProps {
  api: HttpApi;
  table: ITable;
  /** The stream's message consumer: its IteratorAge is how late events and webhooks are. */
  streamHandler: IFunction;
  /** The stream's usage consumer: its IteratorAge is how late usage aggregates and credits are. */
  usageStreamHandler: IFunction;
  /** The queues whose messages each mean a failure somebody must look at. */
  /** `emailFeedbackDeadLetters`: only with emails on (an SES identity, lib/email-feedback.ts). */
  failureQueues: { streamFailures: IQueue; deliveryDeadLetters: IQueue; dueWorkDeadLetters: IQueue; emailFeedbackDeadLetters?: IQueue };
  functionGroups: readonly FunctionGroup[];
  logRetention: RetentionDays;
  encryptionKey?: IKey;
  /** Where every alarm notifies. Default: a topic of the stack's own. */
  alarmTopic?: ITopic;
  /** An address subscribed to the alarm topic (it must confirm the subscription from the mail SNS sends). */
  alarmEmail?: string;
}

/**
 * What operations watch (docs/operations.md): the API stage's JSON access log, and the alarms, which all notify one
 * SNS topic: a message in a failure queue, a 5xx rate above 1 %, any quarantined stream record, a lagging stream consumer (each),
 * throttled table requests, and per function group any Lambda error or throttle.
 */
export class Monitoring extends Construct {
  readonly accessLogs: LogGroup;
  readonly alarmTopic: ITopic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, table, failureQueues } = props;
    this.alarmTopic = props.alarmTopic ?? this.ownTopic(props.encryptionKey);
    if (props.alarmEmail !== undefined) {
      new Subscription(this, 'AlarmEmail', { topic: this.alarmTopic, protocol: SubscriptionProtocol.EMAIL, endpoint: alarmEmailAddress(props.alarmEmail) });
    }

    this.accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: props.logRetention, encryptionKey: props.encryptionKey });
    const stage = api.defaultStage?.node.defaultChild;
    if (!(stage instanceof CfnStage)) throw new Error('Monitoring: the HTTP API has no default stage to log');
    stage.accessLogSettings = { destinationArn: this.accessLogs.logGroupArn, format: JSON.stringify(accessLogFormat) };

    const waiting = (queue: IQueue) => queue.metricApproximateNumberOfMessagesVisible({ period: alarmPeriod, statistic: 'Maximum' });
    this.alarm(this, 'StreamFailuresAlarm', waiting(failureQueues.streamFailures), 0,
      'A stream batch was given up on: its records\' positions wait in the stream failure queue (docs/operations.md).');
    this.alarm(this, 'DeliveryDeadLettersAlarm', waiting(failureQueues.deliveryDeadLetters), 0,
      'A webhook delivery job failed on infrastructure errors maxReceiveCount times and was dead-lettered (docs/operations.md).');
    this.alarm(this, 'DueWorkDeadLettersAlarm', waiting(failureQueues.dueWorkDeadLetters), 0,
      'A due item (renewal, expiry, auto-load, grace period) failed maxReceiveCount times and was dead-lettered (docs/scheduled-work.md).');
    if (failureQueues.emailFeedbackDeadLetters) {
      this.alarm(this, 'EmailFeedbackDeadLettersAlarm', waiting(failureQueues.emailFeedbackDeadLetters), 0,
        'An SES delivery, bounce or complaint report failed three times and was dead-lettered, not applied (docs/emails.md).');
    }

    const serverErrorRate = new MathExpression({
      expression: '100 * FILL(errors, 0) / requests',
      usingMetrics: { errors: api.metricServerError({ statistic: 'Sum' }), requests: api.metricCount({ statistic: 'Sum' }) },
      period: alarmPeriod,
      label: '5xx responses (% of requests)',
    });
    this.alarm(this, 'ServerErrorRateAlarm', serverErrorRate, serverErrorRateThresholdPercent,
      `More than ${serverErrorRateThresholdPercent} % of API requests answered 5xx over five minutes.`);

    // A Metrics Insights query sums the metric over whatever dimensions the emitting code sets.
    this.alarm(this, 'QuarantinedRecordsAlarm', insights(`SELECT SUM(QuarantinedRecords) FROM "${METRICS_NAMESPACE}"`, 'Quarantined stream records'), 0,
      'The stream handler quarantined a record it could not process (docs/operations.md, Quarantined stream records).');

    // One per consumer: each reads the stream at its own pace, and either may fall behind alone.
    const iteratorAge = (fn: IFunction, label: string) => fn.metric('IteratorAge', { statistic: 'Maximum', period: alarmPeriod, label });
    this.alarm(this, 'StreamIteratorAgeAlarm', iteratorAge(props.streamHandler, 'Stream iterator age, messages (ms)'), iteratorAgeThreshold.toMilliseconds(),
      `The message consumer's oldest unprocessed stream record is over ${iteratorAgeThreshold.toMinutes()} minutes old: events and webhooks lag (docs/operations.md).`);
    this.alarm(this, 'UsageStreamIteratorAgeAlarm', iteratorAge(props.usageStreamHandler, 'Stream iterator age, usage (ms)'), iteratorAgeThreshold.toMilliseconds(),
      `The usage consumer's oldest unprocessed stream record is over ${iteratorAgeThreshold.toMinutes()} minutes old: usage aggregates and credits lag (docs/operations.md).`);

    // Every operation, on the table and its indexes: a write an index cannot take is throttled on the table.
    this.alarm(this, 'TableThrottledRequestsAlarm',
      insights(`SELECT SUM(ThrottledRequests) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = '${table.tableName}'`, 'Throttled table requests'), 0,
      'DynamoDB throttled requests to the table or its indexes (a hot partition, or on-demand scaling behind a surge) (docs/operations.md).');
    this.alarm(this, 'IndexWriteThrottleEventsAlarm',
      insights(`SELECT SUM(WriteThrottleEvents) FROM SCHEMA("AWS/DynamoDB", GlobalSecondaryIndexName, TableName) WHERE TableName = '${table.tableName}'`, 'Index write throttle events'), 0,
      'A global secondary index throttled writes (a hot index partition), which throttles the table\'s writes too (docs/operations.md).');

    for (const group of props.functionGroups) this.watchFunctions(group);
  }

  /** Alarms on any error and any throttle among the group's functions, in alarms of `maxMetricsPerAlarm` functions. */
  private watchFunctions({ name, functions, scope = this }: FunctionGroup): void {
    const ids = scope === this ? name : '';
    const watched = [
      { metricName: 'Errors', what: 'an invocation failed (an unhandled exception, a timeout, out of memory)' },
      { metricName: 'Throttles', what: 'an invocation was throttled (no concurrency left for it)' },
    ];
    for (const { metricName, what } of watched) {
      chunksOf(functions, maxMetricsPerAlarm).forEach((chunk, i) => {
        const label = `${metricName} of ${name}${i > 0 ? ` (${i + 1})` : ''}`;
        const metrics = chunk.map((fn) => fn.metric(metricName, { statistic: 'Sum', period: alarmPeriod }));
        const metric = metrics.length === 1 ? metrics[0]!.with({ label }) : new MathExpression({
          // A function not invoked in a period has no data point there: filled, so one silent function hides nothing.
          expression: `SUM([${metrics.map((_, j) => `FILL(m${j}, 0)`).join(', ')}])`,
          usingMetrics: Object.fromEntries(metrics.map((m, j) => [`m${j}`, m])),
          period: alarmPeriod,
          label,
        });
        const which = chunk.length === 1 ? 'its function' : `one of the ${chunk.length} functions of this alarm`;
        this.alarm(scope, `${ids}Lambda${metricName}${i > 0 ? i + 1 : ''}`, metric, 0,
          `${name}: ${what} in the last 5 minutes, in ${which} (docs/operations.md, "Lambda errors and throttles").`);
      });
    }
  }

  /** The stack's alarm topic: under the stack's key when it has one, reachable over TLS only. */
  private ownTopic(encryptionKey: IKey | undefined): Topic {
    const topic = new Topic(this, 'AlarmTopic', { displayName: 'Billing API alarms', enforceSSL: true, ...(encryptionKey && { masterKey: encryptionKey }) });
    // CloudWatch publishes the alarms: it must be able to encrypt messages under the topic's key.
    encryptionKey?.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    if (!encryptionKey) {
      Validations.of(topic).acknowledge({
        id: 'AwsSolutions-SNS2',
        reason: 'Without the stack\'s customer-managed key there is no key CloudWatch may publish under: the AWS-managed SNS key\'s policy does not let CloudWatch alarms use it. With encryptionKey the topic is encrypted (docs/operations.md).',
      });
    }
    return topic;
  }

  /** An alarm when `metric` exceeds `threshold` in one period; no data (no traffic, empty queue) is not a failure. */
  private alarm(scope: Construct, id: string, metric: IMetric, threshold: number, description: string): void {
    const alarm = new Alarm(scope, id, {
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    this.alarms.push(alarm);
  }
}

/** A Metrics Insights query over one alarm period. */
const insights = (query: string, label: string): MathExpression => new MathExpression({ expression: query, usingMetrics: {}, period: alarmPeriod, label });

/** An email address as SNS takes it, or a synth error naming the property (and context key). */
export function alarmEmailAddress(address: string): string {
  const trimmed = address.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(trimmed)) throw new Error(`Monitoring: alarmEmail must be an email address, not ${JSON.stringify(address)}`);
  return trimmed;
}
