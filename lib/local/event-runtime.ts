import type { DynamoDBRecord } from 'aws-lambda';
import { handler } from '../../functions/streams/events';
import { clock } from '../../shared/clock';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { LocalDeliveryQueue, useDeliveryQueue } from '../../shared/domain/webhooks/delivery-queue';
import { runJob } from '../../shared/domain/webhooks/run-job';
import { startStreamPoller } from './stream-poller';

export interface EventRuntime {
  /** Processes every stream record written so far: events, messages and queued deliveries exist afterwards. */
  settle(): Promise<void>;
  /** Runs the delivery and email attempts due at the clock's time. */
  deliverDue(): Promise<number>;
  queue: LocalDeliveryQueue;
  stop(): Promise<void>;
}

export interface EventRuntimeOptions {
  endpoint: string;
  tableName: string;
  from: 'trim_horizon' | 'latest';
  checkpointFile?: string;
  accept?: (record: DynamoDBRecord) => boolean;
  /** Run due deliveries every this many ms; `false`: only when `deliverDue` is called (tests moving the clock). */
  deliveryTickMs: number | false;
  /** Run the scheduled handler's work every this many ms (EventBridge does it every minute on AWS). */
  scheduleTickMs?: number | false;
}

/**
 * What AWS does around the table, on this machine: the stream poller feeds the stream handler (as the Lambda event
 * source would), delivery and email attempts wait in an in-process queue (as in SQS) for the same `runJob` function, and
 * the scheduled handler's work runs on a timer (as the EventBridge rule does).
 */
export async function startEventRuntime(options: EventRuntimeOptions): Promise<EventRuntime> {
  const queue = new LocalDeliveryQueue(() => clock.now());
  useDeliveryQueue(queue);
  const poller = await startStreamPoller({ ...options, handler });
  const deliverDue = () => queue.runDue(runJob);
  let ticking: Promise<unknown> = Promise.resolve();
  const every = (ms: number | false | undefined, work: () => Promise<unknown>, what: string) =>
    ms
      ? setInterval(() => {
          ticking = ticking.then(work).catch((error) => console.error(`${what} failed`, error));
        }, ms)
      : undefined;
  const timers = [
    every(options.deliveryTickMs, deliverDue, 'webhook delivery'),
    every(options.scheduleTickMs, () => runDueWork(clock.now()), 'scheduled work'),
  ];
  return {
    settle: () => poller.drain(),
    deliverDue,
    queue,
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await ticking;
      await poller.stop();
    },
  };
}
