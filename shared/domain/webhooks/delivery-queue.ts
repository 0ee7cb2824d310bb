import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';

/** A delivery to attempt: the message to which endpoint, and which attempt it is (1-based). */
export interface DeliveryJob {
  workspaceId: string;
  messageId: string;
  endpointId: string;
  attempt: number;
  notBefore: string;
}

/** An email to send (shared/email/send.ts): which email, and which attempt it is (1-based). */
export interface EmailJob {
  kind: 'email';
  workspaceId: string;
  emailId: string;
  attempt: number;
  notBefore: string;
}

/** Webhook deliveries and emails share the queue and its consumer (functions/webhooks/deliver.ts). */
export type QueuedJob = DeliveryJob | EmailJob;

export const isEmailJob = (job: QueuedJob): job is EmailJob => (job as EmailJob).kind === 'email';

/** Where due and future delivery attempts wait. On AWS an SQS queue; locally an in-process queue. */
export interface DeliveryQueue {
  enqueue(job: QueuedJob): Promise<void>;
}

/** SQS delays a message by 15 minutes at most: later attempts are re-enqueued by the consumer until due. */
export const SQS_MAX_DELAY_S = 900;

export function sqsDeliveryQueue(queueUrl: string, now: () => Date): DeliveryQueue {
  const sqs = new SQSClient({});
  return {
    async enqueue(job) {
      const wait = Math.ceil((Date.parse(job.notBefore) - now().getTime()) / 1000);
      await sqs.send(
        new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job), DelaySeconds: Math.min(SQS_MAX_DELAY_S, Math.max(0, wait)) }),
      );
    },
  };
}

/**
 * The local stand-in: jobs wait in memory until the (injectable) clock passes their time, and `runDue` hands the
 * due ones to the same delivery function the SQS consumer calls. Tests move the clock and call `runDue`.
 */
export class LocalDeliveryQueue implements DeliveryQueue {
  private jobs: QueuedJob[] = [];

  constructor(private readonly now: () => Date) {}

  async enqueue(job: QueuedJob): Promise<void> {
    this.jobs.push(job);
  }

  get pending(): readonly QueuedJob[] {
    return this.jobs;
  }

  /** Runs every job due now (and those its runs make due now), one at a time; returns how many ran. */
  async runDue(deliver: (job: QueuedJob) => Promise<void>): Promise<number> {
    let ran = 0;
    for (;;) {
      const now = this.now().getTime();
      const index = this.jobs.findIndex((job) => Date.parse(job.notBefore) <= now);
      if (index < 0) return ran;
      const [job] = this.jobs.splice(index, 1);
      await deliver(job!);
      ran += 1;
    }
  }
}

let configured: DeliveryQueue | undefined;

/** The process's queue: SQS when DELIVERY_QUEUE_URL is set (on AWS), else the one the local runtime installed. */
export function deliveryQueue(now: () => Date): DeliveryQueue {
  if (configured) return configured;
  const url = process.env.DELIVERY_QUEUE_URL;
  configured = url ? sqsDeliveryQueue(url, now) : new LocalDeliveryQueue(now);
  return configured;
}

export function useDeliveryQueue(queue: DeliveryQueue): void {
  configured = queue;
}
