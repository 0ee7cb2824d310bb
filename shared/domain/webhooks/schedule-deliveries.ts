import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { listPage } from '../../db/pagination';
import { writeUnlessDone } from '../../db/transactions';
import type { MessageItem } from '../events/messages';
import { deliveryKey, type DeliveryItem } from './delivery';
import { deliveryQueue } from './delivery-queue';
import { ENDPOINT, subscribes, type EndpointItem } from './endpoint';

/** At most this many endpoints per workspace (the create route enforces it), so one page lists them all. */
export const MAX_ENDPOINTS = 100;

export async function subscribedEndpoints(ctx: Ctx, eventType: string): Promise<EndpointItem[]> {
  const page = await listPage(ctx, ENDPOINT, { take: MAX_ENDPOINTS, skip: 0 }, (item: EndpointItem) => item);
  return page.data.filter((endpoint) => subscribes(endpoint, eventType));
}

/**
 * Creates a pending delivery per subscribed endpoint (once: the put is conditional) and queues its next attempt.
 * Safe to run again for the same message (a redelivered stream batch): a delivery still pending is queued again,
 * and the attempt counter makes the duplicate job a no-op.
 */
export async function scheduleDeliveries(ctx: Ctx, message: MessageItem): Promise<void> {
  const endpoints = await subscribedEndpoints(ctx, message.payload.event_type);
  for (const endpoint of endpoints) {
    const delivery = await ensureDelivery(ctx, message, endpoint.id);
    if (delivery.status === 'pending') await queueNextAttempt(ctx, delivery);
  }
}

async function ensureDelivery(ctx: Ctx, message: MessageItem, endpointId: string): Promise<DeliveryItem> {
  const fresh: DeliveryItem = {
    ...deliveryKey(ctx, message.id, endpointId),
    _type: 'webhook_delivery',
    message_id: message.id,
    endpoint_id: endpointId,
    status: 'pending',
    attempts: 0,
    next_attempt_at: message.created_at,
    window_started_at: message.created_at,
    last_status_code: null,
  };
  const put = db.send(new PutCommand({ TableName: tableName(), Item: fresh, ConditionExpression: 'attribute_not_exists(pk)' }));
  if (await writeUnlessDone(put)) return fresh;
  return (await getItem<DeliveryItem>(deliveryKey(ctx, message.id, endpointId), true))!;
}

export const queueNextAttempt = (ctx: Ctx, delivery: DeliveryItem) =>
  deliveryQueue(() => ctx.clock.now()).enqueue({
    workspaceId: ctx.workspaceId,
    messageId: delivery.message_id,
    endpointId: delivery.endpoint_id,
    attempt: delivery.attempts + 1,
    notBefore: delivery.next_attempt_at ?? ctx.clock.now().toISOString(),
  });
