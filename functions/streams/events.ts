import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { consumeMessages } from '../../shared/domain/events/message-batch';
import { earliest, response } from '../../shared/domain/events/stream-batch';
import { feeds } from '../../shared/domain/events/stream-consumers';
import { consumeUsage } from '../../shared/domain/metering/usage-batch';
import { linkKeyReady } from '../../shared/pages/link-key';

/**
 * Both of the stream's consumers over one batch, each given the records its mapping's filter would let through
 * (usage.ts, messages.ts; on AWS they are two functions): the tests' and replays' way to run "the stream" on a batch.
 * A record that fails for good is quarantined and skipped; a transient failure is reported at the earliest failed
 * record (ReportBatchItemFailures), so the retry resumes there and nothing after it is lost. Both consumers are
 * idempotent per change, so what a retry runs again is applied once.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  await linkKeyReady();
  const records = event.Records;
  const failures = await Promise.all([
    consumeUsage(records.filter((r) => feeds('usage', r))),
    consumeMessages(records.filter((r) => feeds('messages', r))),
  ]);
  return response(earliest(records, failures));
}
