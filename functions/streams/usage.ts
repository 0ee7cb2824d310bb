import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { response } from '../../shared/domain/events/stream-batch';
import { consumeUsage } from '../../shared/domain/metering/usage-batch';

/** The stream's usage consumer (usage events only, by its mapping's filter): usage aggregates and credits. */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  return response(await consumeUsage(event.Records));
}
