import type { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { BillingFunction, type BillingFunctionProps } from './billing-function';
import { workerTableAccess } from './table-access';

/** The tag naming a function no route invokes (stream consumers, queue consumers, scheduled work, the authorizer). */
export const workerTagKey = 'billing:worker';

/** What the stack knows of a worker: its id (its table access's key), its entry and its timeout. */
export interface WorkerSettings {
  id: keyof typeof workerTableAccess;
  entry: string;
  timeout: Duration;
}

/** A worker function: tagged with its id and given exactly the table access lib/table-access.ts grants that id. */
export function workerFunction(
  scope: Construct, constructId: string, settings: WorkerSettings,
  props: Pick<BillingFunctionProps, 'projectRoot' | 'description' | 'operations'> & { table: ITable; timeout?: Duration },
): BillingFunction {
  const fn = new BillingFunction(scope, constructId, {
    entry: settings.entry, projectRoot: props.projectRoot, description: props.description, timeout: props.timeout ?? settings.timeout,
    tag: [workerTagKey, settings.id], operations: props.operations,
  });
  fn.bindTable(props.table, workerTableAccess[settings.id]);
  return fn;
}
