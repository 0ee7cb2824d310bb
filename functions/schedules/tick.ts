import { SQSClient } from '@aws-sdk/client-sqs';
import type { Context } from 'aws-lambda';
import { clock } from '../../shared/clock';
import { whileHolding } from '../../shared/db/lease';
import { sqsDueQueue, dueQueueUrlEnv } from '../../shared/domain/schedules/due-queue';
import { SCHEDULED_RUN_CURSOR, type RunLimits } from '../../shared/domain/schedules/due-cursor';
import { enqueueDueWork } from '../../shared/domain/schedules/enqueue-due';
import { logger } from '../../shared/observability/logger';

/** The lease every run takes first (`OPS#LEASE` / `scheduled-work`): one run at a time. */
export const SCHEDULED_RUN_LEASE = 'scheduled-work';
/** Added to the run's deadline: what the lease allows for clocks that differ between instances. */
const CLOCK_SKEW_MS = 5_000;

export type ScheduledRun = { due: number } | { skipped: 'another run holds the lease' };

/** The lease and cursor a run uses, and its limits: tests name their own, beside the stack's. */
export interface ScheduledRunOptions {
  lease?: string;
  cursor?: string;
  limits?: RunLimits;
}

/**
 * Run every minute by an EventBridge rule: queues what came due since the last run for the worker function
 * (functions/schedules/work.ts) and does none of it, reading the scheduling index from its cursor (`OPS#SCHEDULE` /
 * `scheduled-work`) to now, a bounded number of items and buckets a run; a run after missed minutes reads the range
 * they span. A large backlog can take longer than the minute between runs (its timeout is 5 minutes): a run starts by
 * taking a lease until its own deadline, and a run that finds it held does nothing (docs/operations.md, "Overlapping
 * scheduled runs"). Locally `npm start` runs `runDueWork`, the same enqueue drained by in-process workers, one run
 * after the other.
 */
export function scheduledRunHandler(given?: SQSClient, options: ScheduledRunOptions = {}) {
  const { lease = SCHEDULED_RUN_LEASE, cursor = SCHEDULED_RUN_CURSOR, limits } = options;
  let sqs = given;
  return async (_event: unknown, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<ScheduledRun> => {
    const url = process.env[dueQueueUrlEnv];
    if (!url) throw new Error(`${dueQueueUrlEnv} is not set: the scheduled function has no queue to send due work to`);
    const now = clock.now();
    // Lambda stops the run at its deadline at the latest: a lease until then cannot be outlived by its holder.
    const until = new Date(now.getTime() + context.getRemainingTimeInMillis() + CLOCK_SKEW_MS);
    const run = await whileHolding(lease, until, () => enqueueDueWork(now, sqsDueQueue(url, (sqs ??= new SQSClient({}))), { cursor, limits }));
    if (run.ran) return run.result;
    logger.info('scheduled run skipped: another run holds the lease');
    return { skipped: 'another run holds the lease' };
  };
}

export const handler = scheduledRunHandler();
