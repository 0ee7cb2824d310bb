import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { BillingFunction } from './billing-function';
import { workerTagKey } from './event-pipeline';

export const scheduledHandler = { id: 'scheduledWork', entry: 'functions/schedules/tick.ts', rate: Duration.minutes(1), timeout: Duration.minutes(5) } as const;

/**
 * Time-driven transitions (credit expiry, wallet auto-load; later grace periods and recurring billing): an
 * EventBridge rule runs the scheduled handler every minute; it scans the sparse scheduling index (gsi4) only.
 */
export class Scheduler extends Construct {
  readonly handler: BillingFunction;

  constructor(scope: Construct, id: string, { table, projectRoot }: { table: ITable; projectRoot: string }) {
    super(scope, id);
    this.handler = new BillingFunction(this, 'Handler', {
      entry: scheduledHandler.entry,
      projectRoot,
      description: 'Scheduled work: credit expiry, wallet auto-load',
      timeout: scheduledHandler.timeout,
      tag: [workerTagKey, scheduledHandler.id],
    });
    this.handler.bindTable(table, 'readWrite');
    new Rule(this, 'EveryMinute', { schedule: Schedule.rate(scheduledHandler.rate), targets: [new LambdaFunction(this.handler.fn, { retryAttempts: 0 })] });
  }
}
