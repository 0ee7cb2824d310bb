import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { BillingFunction, type FunctionOperations } from './billing-function';
import { workerTagKey } from './event-pipeline';
import { workerTableAccess } from './table-access';

export const scheduledHandler = { id: 'scheduledWork', entry: 'functions/schedules/tick.ts', rate: Duration.minutes(1), timeout: Duration.minutes(5) } as const;

/**
 * Time-driven transitions (credit expiry, wallet auto-load; later grace periods and recurring billing): an
 * EventBridge rule runs the scheduled handler every minute; it scans the sparse scheduling index (gsi4) only.
 */
export class Scheduler extends Construct {
  readonly handler: BillingFunction;

  constructor(scope: Construct, id: string, { table, projectRoot, operations }: { table: ITable; projectRoot: string; operations: FunctionOperations }) {
    super(scope, id);
    this.handler = new BillingFunction(this, 'Handler', {
      entry: scheduledHandler.entry,
      projectRoot,
      description: 'Scheduled work: credit expiry, wallet auto-load',
      timeout: scheduledHandler.timeout,
      tag: [workerTagKey, scheduledHandler.id],
      operations,
    });
    this.handler.bindTable(table, workerTableAccess[scheduledHandler.id]);
    new Rule(this, 'EveryMinute', { schedule: Schedule.rate(scheduledHandler.rate), targets: [new LambdaFunction(this.handler.fn, { retryAttempts: 0 })] });
  }
}
