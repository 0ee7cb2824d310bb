import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import { ConditionFailed, translateWriteError } from '../../db/transactions';
import { NotFound } from '../../errors';
import { newId } from '../../ids';
import { LINK_LIFETIMES, linkUrl } from '../../pages/links';
import { findCustomerItem } from '../customers/read';

/**
 * A customer portal session (`POST /v1/customers/{id}/portal-sessions`): a short-lived capability on one customer's
 * billing. The link names the session; the session names the customer, its expiry, and whether it was revoked.
 */
export const PORTAL_SESSION = 'PORTAL';

export interface PortalSessionItem {
  pk: string;
  sk: string;
  _type: 'portal_session';
  id: string;
  customer_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The email that carries its link (`send_email: true`; docs/emails.md). */
  email_id?: string;
  /** DynamoDB's TTL removes the session a day after it expired. */
  ttl: number;
}

const sessionKey = (ctx: Ctx, id: string) => entityKey(ctx, PORTAL_SESSION, id);

const expirySeconds = (item: Pick<PortalSessionItem, 'expires_at'>) => Math.floor(Date.parse(item.expires_at) / 1000);

export const toPortalSession = (item: PortalSessionItem, workspaceId: string) => ({
  id: item.id,
  customer_id: item.customer_id,
  url: linkUrl({ kind: 'portal', workspaceId, id: item.id, generation: 0, expiresAt: expirySeconds(item) }),
  created_at: item.created_at,
  expires_at: item.expires_at,
  revoked_at: item.revoked_at,
  email_id: item.email_id ?? null,
});

export type PortalSession = ReturnType<typeof toPortalSession>;

export const portalSessionNotFound = (id: string) => new NotFound('portal session', id);

export async function createPortalSession(ctx: Ctx, customerId: string): Promise<PortalSession> {
  const customer = await findCustomerItem(ctx, customerId);
  if (customer.deleted_at) throw new NotFound('customer', customerId);
  const now = ctx.clock.now();
  const item = newPortalSession(ctx, newId('ps', now.getTime()), customer.id, now, LINK_LIFETIMES.portalSeconds);
  await db.send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return toPortalSession(item, ctx.workspaceId);
}

/** A session of `customerId` from `from`, for `seconds`. */
export function newPortalSession(ctx: Ctx, id: string, customerId: string, from: Date, seconds: number): PortalSessionItem {
  const expires = new Date(from.getTime() + seconds * 1000);
  return {
    ...sessionKey(ctx, id),
    _type: 'portal_session',
    id,
    customer_id: customerId,
    created_at: from.toISOString(),
    expires_at: expires.toISOString(),
    revoked_at: null,
    ttl: Math.floor(expires.getTime() / 1000) + 86_400,
  };
}

/** The session as stored (any state), or undefined. */
export const findPortalSession = (ctx: Ctx, id: string): Promise<PortalSessionItem | undefined> => getItem<PortalSessionItem>(sessionKey(ctx, id), true);

/** The live session of a portal link: unknown, revoked or past its expiry → 404 (the link check refused expiry already). */
export async function findLiveSession(ctx: Ctx, id: string): Promise<PortalSessionItem> {
  const item = await findPortalSession(ctx, id);
  if (!item || item.revoked_at || Date.parse(item.expires_at) <= ctx.clock.now().getTime()) throw portalSessionNotFound(id);
  return item;
}

/** `DELETE /v1/customers/{id}/portal-sessions/{sessionId}`: the link stops working at once. Revoking twice is a 404. */
export async function revokePortalSession(ctx: Ctx, customerId: string, id: string): Promise<PortalSession> {
  try {
    const answer = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKey(ctx, id),
        UpdateExpression: 'SET revoked_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND customer_id = :customer AND revoked_at = :none',
        ExpressionAttributeValues: { ':now': ctx.clock.now().toISOString(), ':customer': customerId, ':none': null },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toPortalSession(answer.Attributes as PortalSessionItem, ctx.workspaceId);
  } catch (error) {
    if (translateWriteError(error) instanceof ConditionFailed) throw portalSessionNotFound(id);
    throw error;
  }
}
