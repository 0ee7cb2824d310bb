import { clock } from '../../shared/clock';
import { sqsDueQueue, dueQueueUrlEnv } from '../../shared/domain/schedules/due-queue';
import { enqueueDueWork } from '../../shared/domain/schedules/enqueue-due';

/**
 * Run every minute by an EventBridge rule: queues what is due for the worker function (functions/schedules/work.ts)
 * and does none of it. Locally `npm start` runs `runDueWork`, the same enqueue drained by in-process workers.
 */
export const handler = async (): Promise<{ due: number }> => {
  const url = process.env[dueQueueUrlEnv];
  if (!url) throw new Error(`${dueQueueUrlEnv} is not set: the scheduled function has no queue to send due work to`);
  return enqueueDueWork(clock.now(), sqsDueQueue(url));
};
