import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { NotFound } from '../../errors';
import { findMessage, toWebhookMessage, type WebhookMessage } from '../events/messages';
import { deliveryKey, toAttempt, type AttemptItem, type DeliveryItem } from './delivery';
import { findEndpointItem } from './endpoints';
import { queueNextAttempt, subscribedEndpoints } from './schedule-deliveries';

export async function getMessage(ctx: Ctx, id: string): Promise<WebhookMessage> {
  const message = await findMessage(ctx, id, true);
  if (!message) throw new NotFound('webhook message', id);
  return toWebhookMessage(message);
}

/**
 * Sends a message again, now, to every endpoint subscribed to its type: a finished delivery reopens with a fresh
 * 3-day retry window, a pending one is brought forward. Attempts keep counting.
 */
export async function retryMessage(ctx: Ctx, id: string): Promise<WebhookMessage> {
  const message = await findMessage(ctx, id, true);
  if (!message) throw new NotFound('webhook message', id);
  const now = ctx.clock.now().toISOString();
  for (const endpoint of await subscribedEndpoints(ctx, message.payload.event_type)) {
    const result = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deliveryKey(ctx, message.id, endpoint.id),
        UpdateExpression:
          'SET #status = :pending, next_attempt_at = :now, window_started_at = :now, message_id = :message, endpoint_id = :endpoint, ' +
          '#type = :type, attempts = if_not_exists(attempts, :zero), last_status_code = if_not_exists(last_status_code, :null)',
        ExpressionAttributeNames: { '#status': 'status', '#type': '_type' },
        ExpressionAttributeValues: {
          ':pending': 'pending', ':now': now, ':message': message.id, ':endpoint': endpoint.id, ':type': 'webhook_delivery', ':zero': 0, ':null': null,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    await queueNextAttempt(ctx, result.Attributes as DeliveryItem);
  }
  return toWebhookMessage(message);
}

/** An endpoint's delivery attempts, newest first, with take/skip like every /v1 list. */
export async function listAttempts(ctx: Ctx, endpointId: string, query: { take: number; skip: number }) {
  const endpoint = await findEndpointItem(ctx, endpointId);
  const items: AttemptItem[] = [];
  let cursor: Record<string, unknown> | undefined;
  const want = query.skip + query.take;
  while (want > 0 && items.length < want) {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :att)',
        ExpressionAttributeValues: { ':pk': endpoint.pk, ':att': 'ATT#' },
        ScanIndexForward: false,
        Limit: want - items.length,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...((page.Items ?? []) as AttemptItem[]));
    cursor = page.LastEvaluatedKey;
    if (!cursor) break;
  }
  const data = items.slice(query.skip, want).map(toAttempt);
  return { meta: { total: endpoint.attempt_count, taken: data.length, skipped: query.skip, approximateCount: false }, data };
}
