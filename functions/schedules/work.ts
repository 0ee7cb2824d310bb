import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DueItem } from '../../shared/domain/schedules/due-item';
import { runDueItem } from '../../shared/domain/schedules/run-due';
import { linkKeyReady } from '../../shared/pages/link-key';

/**
 * The worker function: due items from the SQS FIFO queue the scheduled function fills, one after another. A
 * failed item is reported (partial batch failure) with every item after it in the batch, left undone, so a
 * message group keeps its order; SQS delivers them again after their visibility timeout, and dead-letters an item
 * after maxReceiveCount receives (lib/scheduler.ts). Each kind of work is conditioned on its item's state, so an
 * item that committed and then crashed, or a duplicate, changes nothing the second time.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  await linkKeyReady(); // invoices in events carry signed page links
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    if (failures.length > 0) {
      failures.push({ itemIdentifier: record.messageId });
      continue;
    }
    try {
      await runDueItem(JSON.parse(record.body) as DueItem);
    } catch (error) {
      const item = safeParse(record.body);
      console.error(JSON.stringify({ level: 'error', scheduled: item?.kind, id: item?.id, workspace: item?.workspace, messageId: record.messageId, error: String(error) }));
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};

const safeParse = (body: string): Partial<DueItem> | undefined => {
  try {
    return JSON.parse(body) as Partial<DueItem>;
  } catch {
    return undefined;
  }
};
