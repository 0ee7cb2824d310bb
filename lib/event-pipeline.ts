import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE_TYPES } from '../shared/domain/events/map-change';
import { STREAM_CONSUMERS, type StreamConsumer } from '../shared/domain/events/stream-consumers';
import { BillingFunction, type FunctionOperations } from './billing-function';
import { EmailFeedback, type EmailFeedbackProps } from './email-feedback';
import { secureQueue } from './queues';
import { withNarrowStreamGrant } from './table-access';
import { workerFunction, type WorkerSettings } from './worker-function';

/** Tag put on the pipeline's Lambdas (value: `streamHandler.id`, `usageStreamHandler.id` or `deliveryConsumer.id`). */
export { workerTagKey } from './worker-function';

/** The environment variable that switches shared/domain/webhooks/delivery-queue.ts to SQS. */
export const deliveryQueueUrlEnv = 'DELIVERY_QUEUE_URL';

/** The environment variable that turns emails on and names their transport (shared/email/transport.ts). */
export const emailTransportEnv = 'EMAIL_TRANSPORT';

/** The environment variable naming the SES configuration set every send uses (shared/email/ses-transport.ts). */
export const sesConfigurationSetEnv = 'SES_CONFIGURATION_SET';

/** How long a webhook POST may take (deliver.ts reads it from WEBHOOK_TIMEOUT_MS; the consumer gets it set). */
export const webhookPostTimeout = Duration.seconds(15);

/**
 * Concurrent batches per stream shard, each consumer (Lambda's maximum, 10). Lambda sends the changes of one
 * partition key to one batch at a time, in order, and each handler keeps one item's changes in order within its batch
 * (shared/domain/events/stream-batch.ts): ordering per item holds, and a shard's backlog is worked ten times faster.
 */
export const streamParallelization = 10;

/** What both stream consumers share: from the oldest record, retried, reported after a day (the stream's 24 h). */
const streamConsumer = {
  batchSize: 100,
  timeout: Duration.seconds(60),
  retryAttempts: 10,
  // The stream keeps records 24 h: a record still failing after a day is given up on (and reported).
  maxRecordAge: Duration.days(1),
} as const;

/** The stream's message consumer (DESIGN.md §6): item changes → events, messages and deliveries. */
export const streamHandler = { ...streamConsumer, id: 'streamEvents', entry: 'functions/streams/messages.ts', consumer: 'messages' } as const;

/**
 * The stream's usage consumer: usage events → hour buckets and credits. A mapping of its own on the same stream, so
 * a burst of usage never delays webhooks (DynamoDB Streams serves two readers per shard at full speed: these two).
 */
export const usageStreamHandler = { ...streamConsumer, id: 'streamUsage', entry: 'functions/streams/usage.ts', consumer: 'usage' } as const;

const deliveryBatchSize = 10;

/** The SQS consumer of delivery jobs. */
export const deliveryConsumer = {
  id: 'deliverWebhooks',
  entry: 'functions/webhooks/deliver.ts',
  batchSize: deliveryBatchSize,
  /**
   * deliver.ts handles a batch's jobs one after the other, each a POST of up to `webhookPostTimeout` plus a few
   * DynamoDB and SQS calls: the function must outlive a batch of slow endpoints, or a timeout fails the whole batch,
   * and every job in it moves one receive closer to the dead-letter queue through no fault of its own.
   */
  timeout: Duration.seconds(deliveryBatchSize * (webhookPostTimeout.toSeconds() + 3)),
  /** Receives before a job is dead-lettered. Only infrastructure errors count: a failed POST is rescheduled. */
  maxReceiveCount: 5,
  /**
   * Concurrent consumer invocations at most, by default (BillingStackProps.workerConcurrency): the SQS event source's
   * maximum concurrency, which caps the consumer without reserving any of the account's pool. Without it a backlog to
   * slow endpoints scales the consumer up to 1,000 and takes the account's concurrency from the API. 20 invocations
   * deliver about 80 jobs a second to endpoints answering in 250 ms (docs/operations.md, "Concurrency budget").
   */
  maxConcurrency: 20,
} as const;

/** AWS's advice for SQS event sources: a visibility timeout of at least six times the function's timeout. */
export const deliveryQueueVisibility = Duration.seconds(6 * deliveryConsumer.timeout.toSeconds());

/** Dead letters and stream failure reports are kept as long as SQS allows. */
const keepFailures = Duration.days(14);

export interface EventPipelineProps {
  table: ITable;
  /** Directory the handler entries are relative to (the one holding package.json). */
  projectRoot: string;
  operations: FunctionOperations;
  /** Encrypts the queues with this key instead of SQS's own (SSE-SQS). */
  encryptionKey?: IKey;
  /** Concurrent delivery consumer invocations at most. Default: deliveryConsumer.maxConcurrency. */
  deliveryConcurrency?: number;
  /**
   * The SES identity (a verified domain or address) customers' emails are sent from (docs/emails.md). Given: the
   * stream handler derives emails and the consumer sends them through SES, allowed to on this identity alone.
   * Absent: no email is derived or sent.
   */
  sesIdentity?: string;
}

/** The SES identity's ARN in the stack's account and region (a domain, or an address). */
export const sesIdentityArn = (scope: Construct, identity: string): string =>
  Stack.of(scope).formatArn({ service: 'ses', resource: 'identity', resourceName: identity, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });

/**
 * Events and webhooks on AWS (DESIGN.md §6): the table's stream feeds two consumers, the usage consumer (usage
 * aggregates, credits) and the stream handler, which records events and messages and queues delivery jobs on an SQS queue (delayed up to 15 min; the consumer re-enqueues jobs not due
 * yet), whose consumer makes the signed POSTs. Stream batches that keep failing are bisected, retried and finally
 * reported to a failure queue; jobs that keep failing go to a dead-letter queue.
 */
export class EventPipeline extends Construct {
  readonly streamHandler: BillingFunction;
  readonly usageStreamHandler: BillingFunction;
  readonly deliveryConsumer: BillingFunction;
  readonly deliveryQueue: Queue;
  readonly deliveryDeadLetterQueue: Queue;
  /** Where Lambda reports stream batches it gave up on (the records' positions, not the records themselves). */
  readonly streamFailureQueue: Queue;
  /** With an SES identity: the configuration set and what applies its deliveries, bounces and complaints. */
  readonly emailFeedback?: EmailFeedback;
  /** `EMAIL_TRANSPORT` of the functions that queue jobs (emails among them): `ses` with an SES identity, else unset (emails off). */
  private readonly emailTransport: string | undefined;

  constructor(
    scope: Construct, id: string,
    { table, projectRoot, operations, encryptionKey, deliveryConcurrency = deliveryConsumer.maxConcurrency, sesIdentity }: EventPipelineProps,
  ) {
    super(scope, id);
    this.emailTransport = sesIdentity ? 'ses' : undefined;
    if (!table.tableStreamArn) throw new Error('EventPipeline: the table needs a stream (NEW_AND_OLD_IMAGES)');
    if (EVENT_SOURCE_TYPES.length === 0) throw new Error('EventPipeline: no item type produces events (EVENT_SOURCE_TYPES is empty)');

    this.streamFailureQueue = secureQueue(this, 'StreamFailures', encryptionKey, { retentionPeriod: keepFailures });
    Validations.of(this.streamFailureQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'It is a dead-letter queue itself: the on-failure destination of the stream mapping, alarmed on (lib/monitoring.ts); nothing consumes it, so nothing could fail to.',
    });
    this.deliveryDeadLetterQueue = secureQueue(this, 'DeliveryDeadLetters', encryptionKey, { retentionPeriod: keepFailures });
    this.deliveryQueue = secureQueue(this, 'Deliveries', encryptionKey, {
      visibilityTimeout: deliveryQueueVisibility,
      // A job waits 15 min at most before the consumer sees it (and re-enqueues it if it is not due yet).
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deliveryDeadLetterQueue, maxReceiveCount: deliveryConsumer.maxReceiveCount },
    });

    const worker = (id: string, settings: WorkerSettings, description: string) => workerFunction(this, id, settings, { projectRoot, description, operations, table });
    // Writes event, message and delivery items; reads endpoints.
    this.streamHandler = worker('StreamHandler', streamHandler, 'Table stream → events, webhook messages and deliveries');
    this.allowQueueing(this.streamHandler.fn);
    this.readStream(table, this.streamHandler.fn, streamHandler);
    this.usageStreamHandler = worker('UsageStreamHandler', usageStreamHandler, 'Table stream → usage aggregates and the credits usage consumes');
    this.readStream(table, this.usageStreamHandler.fn, usageStreamHandler);

    this.deliveryConsumer = worker('DeliveryConsumer', deliveryConsumer, 'Webhook delivery jobs (SQS) → signed POSTs');
    this.deliveryConsumer.fn.addEnvironment('WEBHOOK_TIMEOUT_MS', String(webhookPostTimeout.toMilliseconds()));
    // It re-enqueues jobs not due yet and queues the next attempt after a failed POST.
    this.allowQueueing(this.deliveryConsumer.fn);
    this.deliveryConsumer.fn.addEventSource(
      new SqsEventSource(this.deliveryQueue, { batchSize: deliveryConsumer.batchSize, reportBatchItemFailures: true, maxConcurrency: deliveryConcurrency }),
    );
    if (sesIdentity) this.emailFeedback = this.sendEmailsThrough(sesIdentity, { table, projectRoot, operations, encryptionKey });
  }

  /**
   * A stream consumer's event source mapping: only the changes of the item types it works on invoke it (Lambda ORs
   * the patterns: an insert or update carries the type in NewImage, a removal only in OldImage), so neither waits on
   * the other's records, nor on its own writes.
   */
  private readStream(table: ITable, fn: IFunction, settings: typeof streamHandler | typeof usageStreamHandler): void {
    const types = FilterRule.or(...STREAM_CONSUMERS[settings.consumer satisfies StreamConsumer].types);
    fn.addEventSource(
      // Its stream rights name the stream (CDK's own grant adds dynamodb:ListStreams on `*`).
      new DynamoEventSource(withNarrowStreamGrant(table), {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: settings.batchSize,
        bisectBatchOnError: true,
        retryAttempts: settings.retryAttempts,
        maxRecordAge: settings.maxRecordAge,
        reportBatchItemFailures: true,
        parallelizationFactor: streamParallelization,
        onFailure: new SqsDlq(this.streamFailureQueue),
        filters: [
          FilterCriteria.filter({ dynamodb: { NewImage: { _type: { S: types } } } }),
          FilterCriteria.filter({ dynamodb: { OldImage: { _type: { S: types } } } }),
        ],
      }),
    );
  }

  /**
   * Emails on (shared/email/transport.ts): derived by the stream handler, sent by the consumer, from this identity and
   * through the configuration set whose events report bounces (lib/email-feedback.ts), and nothing else (every
   * function that queues jobs has `EMAIL_TRANSPORT`, see allowQueueing).
   */
  private sendEmailsThrough(identity: string, props: EmailFeedbackProps): EmailFeedback {
    const feedback = new EmailFeedback(this, 'EmailFeedback', props);
    this.deliveryConsumer.fn.addEnvironment(sesConfigurationSetEnv, feedback.configurationSet.configurationSetName);
    this.deliveryConsumer.fn.addToRolePolicy(new PolicyStatement({
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: [sesIdentityArn(this, identity), feedback.configurationSetArn],
    }));
    return feedback;
  }

  /**
   * Lets a function queue delivery jobs: the queue's URL in its environment and permission to send; and whether emails
   * are on (`EMAIL_TRANSPORT`), since the jobs it queues may be emails (the stream handler's, a re-sent invoice's).
   */
  allowQueueing(fn: IFunction & { addEnvironment(key: string, value: string): unknown }): void {
    fn.addEnvironment(deliveryQueueUrlEnv, this.deliveryQueue.queueUrl);
    if (this.emailTransport) fn.addEnvironment(emailTransportEnv, this.emailTransport);
    this.deliveryQueue.grantSendMessages(fn);
  }
}
