import type { DynamoDBRecord } from 'aws-lambda';
import { handler as messagesHandler } from '../../functions/streams/messages';
import { handler as usageHandler } from '../../functions/streams/usage';
import { clock } from '../../shared/clock';
import { feeds, type StreamConsumer } from '../../shared/domain/events/stream-consumers';
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

/** Each consumer's checkpoints in a file of its own: `stream-checkpoints.json` → `stream-checkpoints.usage.json`. */
const checkpointsOf = (file: string | undefined, consumer: StreamConsumer) => (file && consumer === 'usage' ? file.replace(/(\.json)?$/, '.usage.json') : file);

/**
 * What AWS does around the table, on this machine: a stream poller per consumer feeds its handler the records its
 * filter lets through (as the two Lambda event source mappings do, docs/operations.md), each at its own pace, so a
 * burst of usage never holds up webhook messages; delivery and email attempts wait in an in-process queue (as in
 * SQS) for the same `runJob` function, and the scheduled handler's work runs on a timer (as the EventBridge rule does).
 */
export async function startEventRuntime(options: EventRuntimeOptions): Promise<EventRuntime> {
  const queue = new LocalDeliveryQueue(() => clock.now());
  useDeliveryQueue(queue);
  const accept = options.accept ?? (() => true);
  const consumer = (name: StreamConsumer, handler: Parameters<typeof startStreamPoller>[0]['handler']) =>
    startStreamPoller({ ...options, handler, checkpointFile: checkpointsOf(options.checkpointFile, name), accept: (record) => feeds(name, record) && accept(record) });
  const [messages, usage] = await Promise.all([consumer('messages', messagesHandler), consumer('usage', usageHandler)]);
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
    // Both at once; then messages again, for the credits usage consumed (changes the message consumer turns into events).
    settle: async () => {
      await Promise.all([usage.drain(), messages.drain()]);
      await messages.drain();
    },
    deliverDue,
    queue,
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await ticking;
      await Promise.all([messages.stop(), usage.stop()]);
    },
  };
}
