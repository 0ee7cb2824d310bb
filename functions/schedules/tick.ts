import { clock } from '../../shared/clock';
import { sqsDueQueue, dueQueueUrlEnv } from '../../shared/domain/schedules/due-queue';
import { enqueueDueWork, tickWindow } from '../../shared/domain/schedules/enqueue-due';

/**
 * Run every minute by an EventBridge rule: queues what is due for the worker function (functions/schedules/work.ts)
 * and does none of it: what became due in the last minutes, and everything due on a sweep (`tickWindow`). Locally
 * `npm start` runs `runDueWork`, the same enqueue drained by in-process workers.
 */
export const handler = async (): Promise<{ due: number }> => {
  const url = process.env[dueQueueUrlEnv];
  if (!url) throw new Error(`${dueQueueUrlEnv} is not set: the scheduled function has no queue to send due work to`);
  const now = clock.now();
  return enqueueDueWork(now, sqsDueQueue(url), tickWindow(now));
};
