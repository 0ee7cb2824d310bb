import { ArnFormat, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { ConfigurationSet, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { BillingFunction, FunctionOperations } from './billing-function';
import { workerFunction } from './worker-function';
import { secureQueue } from './queues';

/** The function that applies SES's reports (tagged `billing:worker` = this id, as the pipeline's workers are). */
export const emailFeedbackHandler = {
  id: 'applyEmailFeedback',
  entry: 'functions/email-feedback/ses-events.ts',
  timeout: Duration.seconds(30),
  /** Lambda's own retries of an event whose handling threw (an email not recorded as sent yet, a DynamoDB error). */
  retryAttempts: 2,
} as const;

/** The EventBridge detail types of the SES events applied (shared/email/feedback.ts); SES publishes no others here. */
export const sesFeedbackDetailTypes = ['Email Delivered', 'Email Bounced', 'Email Complaint Received'] as const;

export interface EmailFeedbackProps {
  table: ITable;
  projectRoot: string;
  operations: FunctionOperations;
  encryptionKey?: IKey;
}

/**
 * Deliveries, bounces and complaints of the emails sent (docs/emails.md, "Bounces and complaints"): every send names
 * this configuration set, whose event destination is the account's default EventBridge bus (the only bus SES
 * publishes to); a rule matching SES's events of this configuration set invokes the function, which applies each to
 * the email its message tags name. EventBridge rather than SNS: no topic to secure, encrypt and let SES publish to,
 * the filter on the configuration set is in the rule, and the same event shape (`detail` is SES's event record).
 * An event whose handling keeps failing is kept on a dead-letter queue (alarmed on, lib/monitoring.ts).
 */
export class EmailFeedback extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly handler: BillingFunction;
  readonly deadLetterQueue: Queue;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, { table, projectRoot, operations, encryptionKey }: EmailFeedbackProps) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', { reputationMetrics: true });
    this.configurationSet.addEventDestination('DefaultEventBus', {
      destination: EventDestination.eventBus(EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [EmailSendingEvent.DELIVERY, EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });

    this.deadLetterQueue = secureQueue(this, 'DeadLetters', encryptionKey, { retentionPeriod: Duration.days(14) });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'It is a dead-letter queue itself: the on-failure destination of the email feedback function, alarmed on (lib/monitoring.ts); nothing consumes it.',
    });
    this.handler = workerFunction(this, 'Handler', emailFeedbackHandler, {
      projectRoot, operations, table, description: 'SES deliveries, bounces and complaints (EventBridge) → the email, the customer\'s billing_email_status',
    });
    this.handler.fn.configureAsyncInvoke({
      retryAttempts: emailFeedbackHandler.retryAttempts,
      onFailure: new SqsDestination(this.deadLetterQueue),
    });
    this.rule = new Rule(this, 'SesEvents', {
      description: 'SES deliveries, bounces and complaints of the billing emails → the email feedback function',
      eventPattern: {
        source: ['aws.ses'],
        detailType: [...sesFeedbackDetailTypes],
        detail: { mail: { tags: { 'ses:configuration-set': [this.configurationSet.configurationSetName] } } },
      },
      targets: [new LambdaFunction(this.handler.fn)],
    });
  }

  /** The configuration set's ARN: sending with it needs permission on it too. */
  get configurationSetArn(): string {
    return Stack.of(this).formatArn({
      service: 'ses', resource: 'configuration-set', resourceName: this.configurationSet.configurationSetName, arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  }
}
