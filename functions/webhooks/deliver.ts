import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { clock } from '../../shared/clock';
import { deliveryQueue, type QueuedJob } from '../../shared/domain/webhooks/delivery-queue';
import { runJob } from '../../shared/domain/webhooks/run-job';
import { logger } from '../../shared/observability/logger';
import { publishMetrics } from '../../shared/observability/metrics';

/**
 * The SQS consumer of delivery jobs: webhook deliveries and emails (shared/email/send.ts). SQS delays a message by 15 minutes at most, so a job that is not due yet
 * goes back to the queue with the rest of its wait. A job that throws is reported and retried by SQS (then
 * dead-lettered); a failed HTTP attempt is not an error: it is recorded and rescheduled.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const job = JSON.parse(record.body) as QueuedJob;
      if (Date.parse(job.notBefore) > clock.now().getTime() + 1000) await deliveryQueue(() => clock.now()).enqueue(job);
      else await runJob(job);
    } catch (error) {
      logger.error('delivery job failed', { sqs_message: record.messageId, error: error as Error });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  publishMetrics();
  return { batchItemFailures: failures };
}
