import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { performance } from 'node:perf_hooks';
import { makeCtx, type Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { ConditionFailed, transactWrite, writeUnlessDone } from '../../db/transactions';
import { newId } from '../../ids';
import { findMessage, type MessageItem } from '../events/messages';
import { deliveryKey, type AttemptItem, type DeliveryItem } from './delivery';
import type { DeliveryJob } from './delivery-queue';
import { endpointKey, signingSecrets, type EndpointItem } from './endpoint';
import { nextAttemptAt } from './retry-schedule';
import { countFailedDelivery } from '../../observability/business-metrics';
import { queueNextAttempt } from './schedule-deliveries';
import { signatureHeaders } from './signature';
import { DestinationRefused, destinationPolicy } from '../../net/public-address';
import { RequestTimeout, safeRequest } from '../../net/safe-request';

/** A 2xx within 15 s is a success; anything else, or no answer, is a failed attempt. Tests shorten the wait. */
const deliveryTimeoutMs = () => Number(process.env.WEBHOOK_TIMEOUT_MS ?? 15_000);

interface Outcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Makes one attempt of a delivery job: sends the signed message, records the attempt, and either marks the
 * delivery succeeded, queues the next attempt on the retry schedule, or marks it failed (schedule exhausted, or the
 * endpoint answered 410 Gone, which also disables it). A job whose attempt was already made does nothing.
 */
export async function deliver(job: DeliveryJob, random: () => number = Math.random): Promise<void> {
  const ctx = makeCtx(job.workspaceId, `delivery:${job.messageId}:${job.endpointId}:${job.attempt}`);
  const delivery = await getItem<DeliveryItem>(deliveryKey(ctx, job.messageId, job.endpointId), true);
  if (!delivery || delivery.status !== 'pending' || delivery.attempts !== job.attempt - 1) return;
  const [endpoint, message] = await Promise.all([
    getItem<EndpointItem>(endpointKey(ctx, job.endpointId), true),
    findMessage(ctx, job.messageId),
  ]);
  if (!endpoint || endpoint.status !== 'enabled' || !message) {
    await closeDelivery(delivery, endpoint ? 'endpoint disabled' : 'endpoint deleted');
    return;
  }
  const outcome = await send(endpoint, message, ctx.clock.now());
  const attemptedAt = ctx.clock.now();
  const succeeded = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const gone = outcome.statusCode === 410;
  const next = succeeded || gone ? undefined : nextAttemptAt(Date.parse(delivery.window_started_at), attemptedAt.getTime(), job.attempt, random());
  const status: DeliveryItem['status'] = succeeded ? 'succeeded' : next === undefined ? 'failed' : 'pending';
  const nextAt = next === undefined ? null : new Date(next).toISOString();

  try {
    await recordAttempt(ctx, endpoint, delivery, job.attempt, outcome, attemptedAt, status, nextAt, gone);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (error.index === 2) await closeDelivery(delivery, 'endpoint deleted');
    return; // index 1: another worker recorded this attempt first
  }
  // Counted once: only the worker whose attempt was recorded gets here.
  if (status === 'failed') countFailedDelivery();
  if (succeeded) await markSent(message, attemptedAt);
  if (status === 'pending') await queueNextAttempt(ctx, { ...delivery, attempts: job.attempt, next_attempt_at: nextAt });
}

async function send(endpoint: EndpointItem, message: MessageItem, now: Date): Promise<Outcome> {
  const body = JSON.stringify(message.payload);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'billing-api-webhooks/1',
    ...signatureHeaders(message.id, Math.floor(now.getTime() / 1000), body, signingSecrets(endpoint, now)),
  };
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const response = await safeRequest(endpoint.url, { method: 'POST', headers, body, timeoutMs: deliveryTimeoutMs(), policy: destinationPolicy(), maxResponseBytes: 1024 });
    // Redirects are never followed (the target could be anywhere): a 3xx is a failed attempt like any non-2xx.
    const redirected = response.status >= 300 && response.status < 400;
    return { statusCode: response.status, error: redirected ? 'redirect_not_followed' : null, durationMs: took() };
  } catch (error) {
    return { statusCode: null, error: attemptError(error), durationMs: took() };
  }
}

const attemptError = (error: unknown): string =>
  error instanceof DestinationRefused ? 'destination_refused' : error instanceof RequestTimeout ? 'timeout' : 'connection_failed';

/** The attempt, the delivery's new state and the endpoint's attempt count (and status, on 410) in one transaction. */
function recordAttempt(
  ctx: Ctx, endpoint: EndpointItem, delivery: DeliveryItem, attempt: number, outcome: Outcome, at: Date,
  status: DeliveryItem['status'], nextAt: string | null, gone: boolean,
): Promise<void> {
  const id = newId('atm', at.getTime());
  const item: AttemptItem = {
    pk: endpoint.pk,
    sk: `ATT#${id}`,
    _type: 'webhook_attempt',
    id,
    message_id: delivery.message_id,
    endpoint_id: endpoint.id,
    attempt,
    status: status === 'succeeded' ? 'succeeded' : 'failed',
    status_code: outcome.statusCode,
    error: outcome.error,
    duration_ms: outcome.durationMs,
    attempted_at: at.toISOString(),
  };
  return transactWrite([
    { Put: { TableName: tableName(), Item: item } },
    {
      Update: {
        TableName: tableName(),
        Key: { pk: delivery.pk, sk: delivery.sk },
        UpdateExpression: 'SET attempts = :attempt, #status = :status, next_attempt_at = :next, last_status_code = :code',
        ConditionExpression: 'attempts = :previous AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':attempt': attempt, ':previous': attempt - 1, ':status': status, ':pending': 'pending', ':next': nextAt, ':code': outcome.statusCode },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: endpointKey(ctx, endpoint.id),
        UpdateExpression: gone ? 'ADD attempt_count :one SET #status = :disabled, disabled_reason = :reason' : 'ADD attempt_count :one',
        ConditionExpression: 'attribute_exists(pk)',
        ...(gone && { ExpressionAttributeNames: { '#status': 'status' } }),
        ExpressionAttributeValues: { ':one': 1, ...(gone && { ':disabled': 'disabled', ':reason': 'the endpoint answered 410 Gone' }) },
      },
    },
  ]);
}

/** A message's `sent_at` becomes the time of its first successful delivery (set once), at its own key (a shard, or the log before the shards). */
async function markSent(message: MessageItem, at: Date): Promise<void> {
  await writeUnlessDone(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: message.pk, sk: message.sk },
        UpdateExpression: 'SET sent_at = :at, delivered = :true',
        ConditionExpression: 'attribute_not_exists(delivered)',
        ExpressionAttributeValues: { ':at': at.toISOString(), ':true': true },
      }),
    ),
  );
}

async function closeDelivery(delivery: DeliveryItem, reason: string): Promise<void> {
  await writeUnlessDone(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: delivery.pk, sk: delivery.sk },
        UpdateExpression: 'SET #status = :failed, next_attempt_at = :null, closed_reason = :reason',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':pending': 'pending', ':null': null, ':reason': reason },
      }),
    ),
  );
}
