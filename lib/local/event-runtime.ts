import type { DynamoDBRecord } from 'aws-lambda';
import { handler } from '../../functions/streams/events';
import { clock } from '../../shared/clock';
import { deliver } from '../../shared/domain/webhooks/deliver';
import { LocalDeliveryQueue, useDeliveryQueue } from '../../shared/domain/webhooks/delivery-queue';
import { startStreamPoller } from './stream-poller';

export interface EventRuntime {
  /** Processes every stream record written so far: events, messages and queued deliveries exist afterwards. */
  settle(): Promise<void>;
  /** Runs the delivery attempts due at the clock's time. */
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
}

/**
 * What AWS does around the table, on this machine: the stream poller feeds the stream handler (as the Lambda event
 * source would), and delivery attempts wait in an in-process queue (as in SQS) for the same `deliver` function.
 */
export async function startEventRuntime(options: EventRuntimeOptions): Promise<EventRuntime> {
  const queue = new LocalDeliveryQueue(() => clock.now());
  useDeliveryQueue(queue);
  const poller = await startStreamPoller({ ...options, handler });
  const deliverDue = () => queue.runDue((job) => deliver(job));
  let ticking: Promise<unknown> = Promise.resolve();
  const timer =
    options.deliveryTickMs === false
      ? undefined
      : setInterval(() => {
          ticking = ticking.then(deliverDue).catch((error) => console.error('webhook delivery failed', error));
        }, options.deliveryTickMs);
  return {
    settle: () => poller.drain(),
    deliverDue,
    queue,
    stop: async () => {
      clearInterval(timer);
      await ticking;
      await poller.stop();
    },
  };
}
