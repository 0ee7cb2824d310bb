import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AlarmStatusWidget, Dashboard, GraphWidget, MathExpression, Metric, TextWidget, type GraphWidgetProps, type IAlarm, type IMetric, type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../shared/observability/business-metrics';
import { METRICS_NAMESPACE } from '../shared/observability/names';

/** Lambda's default concurrency quota per account and region: the budget the dashboard draws against. */
export const accountConcurrencyBudget = 1_000;

const period = Duration.minutes(5);
/** Widgets per row: a dashboard is 24 units wide. */
const width = 8;
const height = 6;

/** A function the dashboard shows on its own, and its concurrency cap (maxConcurrency), if it has one. */
export interface WatchedFunction {
  label: string;
  fn: IFunction;
  maxConcurrency?: number;
}

export interface ServiceDashboardProps {
  api: HttpApi;
  table: ITable;
  /** The functions outside the routes, one line each. */
  workers: readonly WatchedFunction[];
  /** The stream's message consumer: its IteratorAge is how late events and webhooks are. */
  streamHandler: IFunction;
  /** The stream's usage consumer: its IteratorAge is how late usage aggregates are. */
  usageStreamHandler: IFunction;
  /** Queues of work waiting (deliveries, due work). */
  workQueues: readonly { label: string; queue: IQueue }[];
  /** Queues whose every message is a failure (dead letters, the stream failure queue). */
  failureQueues: readonly { label: string; queue: IQueue }[];
  /** Shown as one status widget. */
  alarms: readonly IAlarm[];
}

/**
 * One CloudWatch dashboard of the service (docs/operations.md, "Dashboard"): what the business did (the embedded
 * metrics of shared/observability/business-metrics.ts), then the API, the Lambdas against the account's concurrency
 * budget, the table, the stream and the queues, and the alarms' states.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const { api, table, workers, streamHandler, usageStreamHandler } = props;
    const graph = (title: string, left: IMetric[], more: Partial<GraphWidgetProps> = {}) =>
      new GraphWidget({ title, left, width, height, period, ...more });
    const perWorker = (metricName: string, statistic: string, suffix = '') =>
      workers.map(({ label, fn }) => fn.metric(metricName, { statistic, period, label: `${label}${suffix}` }));
    const tableQuery = (query: string, label: string) => insights(query.replace('$TABLE', `'${table.tableName}'`), label);

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(24) });
    this.dashboard.addWidgets(
      section('Business', `Embedded metrics of namespace \`${METRICS_NAMESPACE}\` (shared/observability/business-metrics.ts).`),
      graph('Invoices issued', [insights(`SELECT SUM(${BUSINESS_METRICS.invoicesIssued}) FROM "${METRICS_NAMESPACE}"`, 'invoice.ready')]),
      graph('Amount collected (minor units), per currency', [
        insights(`SELECT SUM(${BUSINESS_METRICS.amountCollected}) FROM "${METRICS_NAMESPACE}" GROUP BY currency`, ''),
      ]),
      graph('Webhook deliveries failed, records quarantined', [
        insights(`SELECT SUM(${BUSINESS_METRICS.webhookDeliveriesFailed}) FROM "${METRICS_NAMESPACE}"`, 'Deliveries failed'),
        insights(`SELECT SUM(QuarantinedRecords) FROM "${METRICS_NAMESPACE}"`, 'Records quarantined'),
      ]),
    );
    this.dashboard.addWidgets(
      section('API', 'The HTTP API stage: every request, those refused before a function included.'),
      graph('Requests, 4xx, 5xx', [
        api.metricCount({ period, statistic: 'Sum', label: 'Requests' }),
        api.metricClientError({ period, statistic: 'Sum', label: '4xx' }),
        api.metricServerError({ period, statistic: 'Sum', label: '5xx' }),
      ]),
      graph('Latency (ms)', [
        api.metricLatency({ period, statistic: 'p50', label: 'p50' }),
        api.metricLatency({ period, statistic: 'p99', label: 'p99' }),
        api.metricIntegrationLatency({ period, statistic: 'p99', label: 'Integration p99' }),
      ]),
    );
    this.dashboard.addWidgets(
      section('Lambda', `Concurrency against the account's quota (${accountConcurrencyBudget} by default), the workers one by one, and the 10 functions of the account and region with the most errors, throttles and the longest runs (route function names begin with the stack's name).`),
      graph('Concurrency: account', [
        new Metric({ namespace: 'AWS/Lambda', metricName: 'ConcurrentExecutions', statistic: 'Maximum', period, label: 'All functions' }),
        new Metric({ namespace: 'AWS/Lambda', metricName: 'UnreservedConcurrentExecutions', statistic: 'Maximum', period, label: 'Unreserved' }),
      ], { leftAnnotations: [{ value: accountConcurrencyBudget, label: 'Default quota' }] }),
      graph('Concurrency: workers', perWorker('ConcurrentExecutions', 'Maximum'), {
        leftAnnotations: workers.flatMap(({ label, maxConcurrency }) => (maxConcurrency ? [{ value: maxConcurrency, label: `${label} cap` }] : [])),
      }),
      graph('Workers: errors and throttles', [
        ...perWorker('Errors', 'Sum', ' errors'),
        ...perWorker('Throttles', 'Sum', ' throttles'),
      ]),
      graph('Workers: duration p99 (ms)', perWorker('Duration', 'p99')),
      graph('Top 10 functions by errors', [topFunctions('Errors', 'SUM')]),
      graph('Top 10 functions by throttles', [topFunctions('Throttles', 'SUM')]),
      graph('Top 10 functions by longest run (ms)', [topFunctions('Duration', 'MAX')]),
    );
    this.dashboard.addWidgets(
      section('DynamoDB', 'The table and its global secondary indexes.'),
      graph('Consumed capacity units', [
        table.metricConsumedReadCapacityUnits({ period, statistic: 'Sum', label: 'Read' }),
        table.metricConsumedWriteCapacityUnits({ period, statistic: 'Sum', label: 'Write' }),
      ]),
      graph('Throttled requests, per operation', [
        tableQuery('SELECT SUM(ThrottledRequests) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = $TABLE GROUP BY Operation', ''),
      ]),
      graph('Index throttle events, per index', [
        tableQuery('SELECT SUM(WriteThrottleEvents) FROM SCHEMA("AWS/DynamoDB", GlobalSecondaryIndexName, TableName) WHERE TableName = $TABLE GROUP BY GlobalSecondaryIndexName', ''),
        tableQuery('SELECT SUM(ReadThrottleEvents) FROM SCHEMA("AWS/DynamoDB", GlobalSecondaryIndexName, TableName) WHERE TableName = $TABLE GROUP BY GlobalSecondaryIndexName', ''),
      ]),
      graph('Request latency (ms), average per operation', [
        tableQuery('SELECT AVG(SuccessfulRequestLatency) FROM SCHEMA("AWS/DynamoDB", Operation, TableName) WHERE TableName = $TABLE GROUP BY Operation', ''),
      ]),
    );
    this.dashboard.addWidgets(
      section('Stream and queues', 'How far each stream consumer is behind, what waits in the work queues, and every failure queue (each message is a failure).'),
      graph('Stream iterator age (ms)', [
        streamHandler.metric('IteratorAge', { statistic: 'Maximum', period, label: 'Oldest record, messages' }),
        usageStreamHandler.metric('IteratorAge', { statistic: 'Maximum', period, label: 'Oldest record, usage' }),
      ]),
      graph('Work queues: messages waiting', props.workQueues.map(({ label, queue }) => queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label }))),
      graph('Work queues: oldest message (s)', props.workQueues.map(({ label, queue }) => queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum', label }))),
      graph('Failure queues: messages', props.failureQueues.map(({ label, queue }) => queue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum', label }))),
    );
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 4 }));
  }
}

/** A Metrics Insights query as a dashboard line (or lines, with GROUP BY). */
const insights = (query: string, label: string): MathExpression => new MathExpression({ expression: query, usingMetrics: {}, period, label });

/** The 10 functions of the account and region with the highest `statistic` of `metricName`, one line each. */
const topFunctions = (metricName: string, statistic: 'SUM' | 'MAX'): MathExpression =>
  insights(`SELECT ${statistic}(${metricName}) FROM SCHEMA("AWS/Lambda", FunctionName) GROUP BY FunctionName ORDER BY ${statistic}() DESC LIMIT 10`, '');

/** A full-width heading over a row of widgets. */
const section = (title: string, text: string): IWidget => new TextWidget({ markdown: `## ${title}\n${text}`, width: 24, height: 2 });
