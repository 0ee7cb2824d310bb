import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { DeduplicationScope, FifoThroughputLimit, type Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { LEASE_PARTITION, SCHEDULE_PARTITION } from '../shared/db/keys';
import { dueQueueUrlEnv } from '../shared/domain/schedules/due-queue';
import type { BillingFunction, FunctionOperations } from './billing-function';
import { secureQueue } from './queues';
import { workerFunction } from './worker-function';

/**
 * The scheduled function: finds due items and queues them, doing no work itself. A run sends 300,000 due items at
 * most (RUN_LIMITS, 30,000 SendMessageBatch calls): five minutes leaves room for it. That is longer than the minute
 * between runs: a run holds a lease until its deadline (functions/schedules/tick.ts), and one that finds it held does
 * nothing.
 */
export const scheduledHandler = { id: 'scheduledWork', entry: 'functions/schedules/tick.ts', rate: Duration.minutes(1), timeout: Duration.minutes(5) } as const;

const dueBatchSize = 10;

/** The worker function: due items from the queue, one after another (docs/scheduled-work.md). */
export const dueWorker = {
  id: 'dueWork',
  entry: 'functions/schedules/work.ts',
  /** SQS FIFO hands a Lambda 10 messages at most. */
  batchSize: dueBatchSize,
  /** An item takes tens of milliseconds (a renewal: 3 DynamoDB calls, its transaction retried under contention). */
  timeout: Duration.seconds(60),
  /**
   * Concurrent worker invocations at most, by default (BillingStackProps.workerConcurrency). An entity's renewals are
   * one message group, so one invocation at a time bills them (its numbering counter takes one transaction at a
   * time): more workers serve more entities and the other kinds of work (docs/scheduled-work.md, and the account's
   * concurrency budget in docs/operations.md).
   */
  maxConcurrency: 16,
  /** Receives before an item is dead-lettered: a transient failure is retried, a poison item stops being. */
  maxReceiveCount: 5,
} as const;

/** AWS's advice for SQS event sources: a visibility timeout of at least six times the function's timeout. */
export const dueQueueVisibility = Duration.seconds(6 * dueWorker.timeout.toSeconds());

export interface SchedulerProps {
  table: ITable;
  projectRoot: string;
  operations: FunctionOperations;
  encryptionKey?: IKey;
  /** Concurrent worker invocations at most (the SQS event source's maximum concurrency). Default: dueWorker.maxConcurrency. */
  maxConcurrency?: number;
}

/**
 * The scheduled run's only writes: its lease item (`OPS#LEASE` / `scheduled-work`), taken by a conditional put and
 * released by a conditional delete. Every other item stays out of its reach.
 */
export const leaseStatement = (table: ITable): PolicyStatement =>
  new PolicyStatement({
    actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [LEASE_PARTITION] } },
  });

/**
 * The scheduled run's cursor (`OPS#SCHEDULE` / `scheduled-work`, shared/domain/schedules/due-cursor.ts): read, and
 * written by a conditional put, by that run alone.
 */
export const cursorStatement = (table: ITable): PolicyStatement =>
  new PolicyStatement({
    actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [SCHEDULE_PARTITION] } },
  });

/**
 * Time-driven work (DESIGN.md §16): an EventBridge rule runs the scheduled function every minute; it queries the
 * scheduling index (gsi4) for what came due since its cursor and queues each due item on an SQS FIFO queue (grouped per item or per entity's renewals,
 * deduplicated per item and due date), which the worker function consumes with partial batch failures; an item failing `maxReceiveCount`
 * times goes to a dead-letter queue, alarmed on (lib/monitoring.ts).
 */
export class Scheduler extends Construct {
  readonly handler: BillingFunction;
  readonly worker: BillingFunction;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, { table, projectRoot, operations, encryptionKey, maxConcurrency = dueWorker.maxConcurrency }: SchedulerProps) {
    super(scope, id);
    this.deadLetterQueue = secureQueue(this, 'DueWorkDeadLetters', encryptionKey, { fifo: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'It is the dead-letter queue of the due-work queue, alarmed on (lib/monitoring.ts); nothing consumes it.',
    });
    this.queue = secureQueue(this, 'DueWork', encryptionKey, {
      fifo: true,
      // High-throughput FIFO: ordering and deduplication per message group (an item, or an entity's renewals).
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      visibilityTimeout: dueQueueVisibility,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: dueWorker.maxReceiveCount },
    });

    this.handler = workerFunction(this, 'Handler', scheduledHandler, {
      projectRoot, operations, table, description: 'Scheduled work: finds what came due (gsi4, from its cursor) and queues it',
    });
    this.handler.fn.addToRolePolicy(leaseStatement(table));
    this.handler.fn.addToRolePolicy(cursorStatement(table));
    this.handler.fn.addEnvironment(dueQueueUrlEnv, this.queue.queueUrl);
    this.queue.grantSendMessages(this.handler.fn);
    new Rule(this, 'EveryMinute', { schedule: Schedule.rate(scheduledHandler.rate), targets: [new LambdaFunction(this.handler.fn, { retryAttempts: 0 })] });

    this.worker = workerFunction(this, 'Worker', dueWorker, {
      projectRoot, operations, table, description: 'Due work (SQS): renewals, collections and retries, credit expiry, wallet auto-load, grace periods',
    });
    // A failed message's visibility is shortened (functions/schedules/work.ts): consuming the queue allows it.
    this.worker.fn.addEnvironment(dueQueueUrlEnv, this.queue.queueUrl);
    this.worker.fn.addEventSource(
      new SqsEventSource(this.queue, { batchSize: dueWorker.batchSize, reportBatchItemFailures: true, maxConcurrency }),
    );
  }
}
