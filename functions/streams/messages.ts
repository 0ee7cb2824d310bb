import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { consumeMessages } from '../../shared/domain/events/message-batch';
import { response } from '../../shared/domain/events/stream-batch';
import { linkKeyReady } from '../../shared/pages/link-key';

/** The stream's message consumer (item types that produce events, by its mapping's filter): events, messages, deliveries. */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  await linkKeyReady(); // invoices and quotes in events carry signed page links
  return response(await consumeMessages(event.Records));
}
