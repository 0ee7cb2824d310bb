import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock';
import { logger } from '../observability/logger';
import { db, tableName } from './client';
import { leaseKey } from './keys';
import { writeUnlessDone } from './transactions';

/** The item a holder writes: who holds it and until when (ms since the epoch, the process clock's). */
export interface LeaseItem {
  pk: string;
  sk: string;
  _type: 'lease';
  holder: string;
  taken_at: string;
  expires_at: number;
  /** DynamoDB's TTL removes a lease nobody released (its holder crashed) a day after it expired. */
  ttl: number;
}

/**
 * Runs `work` while holding the lease `name` until `until`, unless another holder's lease has not expired yet: then
 * nothing runs and the answer is `{ ran: false }`. The lease is a conditional put (absent, or expired), released at the
 * end by a delete conditioned on still being its holder, so a run that outlived its lease never removes its
 * successor's. A holder that crashes releases nothing: its lease stops counting at `until`. So `until` must be no
 * earlier than the holder can still be running (for a Lambda, its deadline).
 */
export async function whileHolding<T>(name: string, until: Date, work: () => Promise<T>): Promise<{ ran: true; result: T } | { ran: false }> {
  const now = clock.now();
  const holder = randomUUID();
  const item: LeaseItem = {
    ...leaseKey(name), _type: 'lease', holder, taken_at: now.toISOString(), expires_at: until.getTime(), ttl: Math.ceil(until.getTime() / 1000) + 86_400,
  };
  const taken = await writeUnlessDone(
    db.send(new PutCommand({
      TableName: tableName(),
      Item: item,
      ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now',
      ExpressionAttributeValues: { ':now': now.getTime() },
    })),
  );
  if (!taken) return { ran: false };
  try {
    return { ran: true, result: await work() };
  } finally {
    // Not its holder any more (it expired and was taken): the successor's lease stays. A release that fails leaves
    // the lease to expire, which delays the next run, not this one's result.
    await writeUnlessDone(
      db.send(new DeleteCommand({ TableName: tableName(), Key: leaseKey(name), ConditionExpression: 'holder = :holder', ExpressionAttributeValues: { ':holder': holder } })),
    ).catch((error: unknown) => logger.warn('lease not released', { lease: name, error: String(error) }));
  }
}
