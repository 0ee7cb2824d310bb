import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { USAGE_EVENT } from '../metering/usage-event';
import { EVENT_SOURCE_TYPES } from './map-change';

/**
 * The table stream's two consumers (docs/operations.md, "The stream's consumers"), each fed only the item types it
 * works on, so that neither waits on the other: a workspace's burst of usage events never delays another's webhooks.
 * On AWS each is a Lambda event source mapping with these types as its filter; locally a stream poller each.
 */
export const STREAM_CONSUMERS = {
  /** Usage events → hour buckets and the credits they consume (shared/domain/metering/usage-batch.ts). */
  usage: { types: [USAGE_EVENT] as readonly string[] },
  /** Item changes → events, webhook messages, deliveries and emails (shared/domain/events/message-batch.ts). */
  messages: { types: EVENT_SOURCE_TYPES as readonly string[] },
} as const;

export type StreamConsumer = keyof typeof STREAM_CONSUMERS;

/** What the event source mapping's filter lets through: the type in the new image (insert, update) or the old (removal). */
export function feeds(consumer: StreamConsumer, record: DynamoDBRecord): boolean {
  const { types } = STREAM_CONSUMERS[consumer];
  const typeIn = (image: Record<string, AttributeValue> | undefined) => {
    const type = image?._type?.S;
    return type !== undefined && types.includes(type);
  };
  return typeIn(record.dynamodb?.NewImage) || typeIn(record.dynamodb?.OldImage);
}
