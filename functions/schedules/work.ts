import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DueItem } from '../../shared/domain/schedules/due-item';
import { runDueBatch } from '../../shared/domain/schedules/run-due';
import { linkKeyReady } from '../../shared/pages/link-key';

/**
 * The worker function: a batch of due items from the SQS FIFO queue the scheduled function fills, run by
 * `runDueBatch` (a workspace's renewals together, one transaction and one run of invoice numbers per entity; the rest
 * one by one). From the first record that failed (or could not be read) on, every record is reported as a batch
 * item failure, as a FIFO queue asks; SQS delivers them again after their visibility timeout and dead-letters an item
 * after maxReceiveCount receives (lib/scheduler.ts). Each kind of work is conditioned on its item's state, so an item
 * that committed and then crashed, a duplicate, or a done item reported again changes nothing the second time.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  await linkKeyReady(); // invoices in events carry signed page links
  const parsed = event.Records.map((record) => ({ record, item: parse(record.body) }));
  const unreadable = parsed.findIndex((p) => !p.item);
  const readable = unreadable < 0 ? parsed : parsed.slice(0, unreadable);
  const failures = await runDueBatch(readable.map((p) => p.item!));
  for (const { item, error } of failures) {
    console.error(JSON.stringify({ level: 'error', scheduled: item.kind, id: item.id, workspace: item.workspace, error: String(error) }));
  }
  const failed = new Set(failures.map((f) => f.item));
  const firstFailed = parsed.findIndex((p) => !p.item || failed.has(p.item));
  if (unreadable >= 0) console.error(JSON.stringify({ level: 'error', messageId: parsed[unreadable]!.record.messageId, error: 'unreadable due item' }));
  return { batchItemFailures: firstFailed < 0 ? [] : parsed.slice(firstFailed).map((p) => ({ itemIdentifier: p.record.messageId })) };
};

function parse(body: string): DueItem | undefined {
  try {
    const item = JSON.parse(body) as DueItem;
    return typeof item?.kind === 'string' && typeof item.id === 'string' && typeof item.workspace === 'string' ? item : undefined;
  } catch {
    return undefined;
  }
}
