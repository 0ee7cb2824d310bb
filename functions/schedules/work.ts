import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DueItem } from '../../shared/domain/schedules/due-item';
import { dueQueueUrlEnv, retrySooner } from '../../shared/domain/schedules/due-queue';
import { runDueBatch } from '../../shared/domain/schedules/run-due';
import { linkKeyReady } from '../../shared/pages/link-key';

/**
 * The worker function: a batch of due items from the SQS FIFO queue the scheduled function fills, run by
 * `runDueBatch` (a workspace's renewals together, one transaction and one run of invoice numbers per entity; the rest
 * one by one). Only the records that failed (or could not be read) are reported as batch item failures: no kind of
 * work depends on the order of another, so the ones after a failure stand. A failed record is delivered again after
 * retryDelaySeconds rather than the queue's visibility timeout, since it holds back its message group (an entity's
 * renewals) until then; SQS dead-letters it after maxReceiveCount receives (lib/scheduler.ts). Each kind of work is
 * conditioned on its item's state, so an item that committed and then crashed, a duplicate, or a done item reported
 * again changes nothing the second time.
 */
export function dueWorkHandler(given?: SQSClient) {
  // Made on the first failure, not at import: most invocations never need it.
  let sqs = given;
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    await linkKeyReady(); // invoices in events carry signed page links
    const parsed = event.Records.map((record) => ({ record, item: parse(record.body) }));
    for (const { record } of parsed.filter((p) => !p.item)) console.error(JSON.stringify({ level: 'error', messageId: record.messageId, error: 'unreadable due item' }));
    const failures = await runDueBatch(parsed.flatMap((p) => (p.item ? [p.item] : [])));
    for (const { item, error } of failures) {
      console.error(JSON.stringify({ level: 'error', scheduled: item.kind, id: item.id, workspace: item.workspace, error: String(error) }));
    }
    const failed = new Set(failures.map((f) => f.item));
    const records = parsed.filter((p) => !p.item || failed.has(p.item)).map((p) => p.record);
    const queueUrl = process.env[dueQueueUrlEnv];
    if (queueUrl && records.length > 0) {
      const messages = records.map((r) => ({ receiptHandle: r.receiptHandle, receiveCount: Number(r.attributes?.ApproximateReceiveCount) || 1 }));
      // Best effort: if SQS refuses, the queue's visibility timeout applies.
      await retrySooner(queueUrl, messages, (sqs ??= new SQSClient({}))).catch((error) => console.warn(JSON.stringify({ level: 'warn', message: 'visibility not shortened', error: String(error) })));
    }
    return { batchItemFailures: records.map((r) => ({ itemIdentifier: r.messageId })) };
  };
}

export const handler = dueWorkHandler();

function parse(body: string): DueItem | undefined {
  try {
    const item = JSON.parse(body) as DueItem;
    return typeof item?.kind === 'string' && typeof item.id === 'string' && typeof item.workspace === 'string' ? item : undefined;
  } catch {
    return undefined;
  }
}
