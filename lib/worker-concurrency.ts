import type { Node } from 'constructs';
import { deliveryConsumer } from './event-pipeline';
import { contextObject } from './rate-limits';
import { dueWorker } from './scheduler';

/**
 * How many invocations of each SQS-fed worker may run at once: the event sources' maximum concurrency, which caps a
 * worker without reserving any of the account's concurrency (docs/operations.md, "Concurrency budget").
 */
export interface WorkerConcurrency {
  /** The webhook delivery consumer. Default: deliveryConsumer.maxConcurrency (20). */
  deliveries: number;
  /** The due-work worker. Default: dueWorker.maxConcurrency (16). */
  dueWork: number;
}

/** What SQS event sources take as maximum concurrency. */
const MIN = 2;
const MAX = 1_000;

/** Props first, else CDK context `workerConcurrency` (`{"deliveries": 40}`; members left out keep their defaults). */
export function resolveWorkerConcurrency(node: Node, props?: Partial<WorkerConcurrency>): WorkerConcurrency {
  const given = props ?? (contextObject(node, 'workerConcurrency') as Partial<WorkerConcurrency> | undefined) ?? {};
  const check = (what: keyof WorkerConcurrency, value: unknown): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < MIN || value > MAX) {
      throw new Error(`workerConcurrency.${what} must be a whole number from ${MIN} to ${MAX} (an SQS event source's maximum concurrency), not ${JSON.stringify(value)}`);
    }
    return value;
  };
  return {
    deliveries: check('deliveries', given.deliveries ?? deliveryConsumer.maxConcurrency),
    dueWork: check('dueWork', given.dueWork ?? dueWorker.maxConcurrency),
  };
}
