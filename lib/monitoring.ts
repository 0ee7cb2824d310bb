import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../shared/observability/names';

/**
 * One JSON object per API request (HTTP API `$context` variables): what docs/operations.md calls the access log.
 * `workspace` is the verified token's claim; `integrationError` says why a Lambda integration failed (timeout…).
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
  workspace: '$context.authorizer.claims.workspace_id',
  userAgent: '$context.identity.userAgent',
} as const;

/** The 5xx alarm: above this share of requests (in percent) over one period. */
export const serverErrorRateThresholdPercent = 1;
const alarmPeriod = Duration.minutes(5);

export interface MonitoringProps {
  api: HttpApi;
  /** The queues whose messages each mean a failure somebody must look at. */
  failureQueues: { streamFailures: IQueue; deliveryDeadLetters: IQueue; dueWorkDeadLetters: IQueue };
  logRetention: RetentionDays;
  encryptionKey?: IKey;
  /** Where every alarm notifies, when set. */
  alarmTopic?: ITopic;
}

/**
 * What operations watch (docs/operations.md): the API stage's JSON access log, and the alarms: a message in a
 * failure queue, a 5xx rate above 1 %, any quarantined stream record.
 */
export class Monitoring extends Construct {
  readonly accessLogs: LogGroup;
  readonly alarms: Alarm[] = [];
  private readonly alarmTopic?: ITopic;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, failureQueues } = props;
    this.alarmTopic = props.alarmTopic;

    this.accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: props.logRetention, encryptionKey: props.encryptionKey });
    const stage = api.defaultStage?.node.defaultChild;
    if (!(stage instanceof CfnStage)) throw new Error('Monitoring: the HTTP API has no default stage to log');
    stage.accessLogSettings = { destinationArn: this.accessLogs.logGroupArn, format: JSON.stringify(accessLogFormat) };

    const waiting = (queue: IQueue) => queue.metricApproximateNumberOfMessagesVisible({ period: alarmPeriod, statistic: 'Maximum' });
    this.alarm('StreamFailuresAlarm', waiting(failureQueues.streamFailures), 0,
      'A stream batch was given up on: its records\' positions wait in the stream failure queue (docs/operations.md).');
    this.alarm('DeliveryDeadLettersAlarm', waiting(failureQueues.deliveryDeadLetters), 0,
      'A webhook delivery job failed on infrastructure errors maxReceiveCount times and was dead-lettered (docs/operations.md).');
    this.alarm('DueWorkDeadLettersAlarm', waiting(failureQueues.dueWorkDeadLetters), 0,
      'A due item (renewal, expiry, auto-load, grace period) failed maxReceiveCount times and was dead-lettered (docs/scheduled-work.md).');

    const serverErrorRate = new MathExpression({
      expression: '100 * FILL(errors, 0) / requests',
      usingMetrics: { errors: api.metricServerError({ statistic: 'Sum' }), requests: api.metricCount({ statistic: 'Sum' }) },
      period: alarmPeriod,
      label: '5xx responses (% of requests)',
    });
    this.alarm('ServerErrorRateAlarm', serverErrorRate, serverErrorRateThresholdPercent,
      `More than ${serverErrorRateThresholdPercent} % of API requests answered 5xx over five minutes.`);

    // A Metrics Insights query sums the metric over whatever dimensions the emitting code sets.
    const quarantined = new MathExpression({
      expression: `SELECT SUM(QuarantinedRecords) FROM "${METRICS_NAMESPACE}"`,
      usingMetrics: {},
      period: alarmPeriod,
      label: 'Quarantined stream records',
    });
    this.alarm('QuarantinedRecordsAlarm', quarantined, 0,
      'The stream handler quarantined a record it could not process (docs/operations.md, Quarantined stream records).');
  }

  /** An alarm when `metric` exceeds `threshold` in one period; no data (no traffic, empty queue) is not a failure. */
  private alarm(id: string, metric: IMetric, threshold: number, description: string): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    if (this.alarmTopic) alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    this.alarms.push(alarm);
  }
}
