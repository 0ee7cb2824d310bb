import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { writeUnlessDone } from '../../db/transactions';
import { findPortalSession, newPortalSession, toPortalSession, type PortalSessionItem } from '../../domain/pages/portal-sessions';
import type { EmailItem } from '../email-item';

/** How long the portal link of a notice (trial ending, card expiring) works: the customer may read it days later. */
export const NOTICE_PORTAL_DAYS = 7;

/**
 * The portal link of an email: its session (created with the first attempt of a notice, from the email's creation,
 * for NOTICE_PORTAL_DAYS; a portal_link email's session is the request's). Revoking the session
 * (`DELETE /v1/customers/{id}/portal-sessions/{sessionId}`) stops the link as any other.
 */
export async function portalLinkOf(ctx: Ctx, email: EmailItem): Promise<{ url: string; expires_at: string }> {
  const id = email.portal_session_id!;
  let session: PortalSessionItem | undefined = await findPortalSession(ctx, id);
  if (!session && email.kind !== 'portal_link') {
    const fresh = newPortalSession(ctx, id, email.customer_id, new Date(email.created_at), NOTICE_PORTAL_DAYS * 86_400);
    await writeUnlessDone(db.send(new PutCommand({ TableName: tableName(), Item: fresh, ConditionExpression: 'attribute_not_exists(pk)' })));
    session = fresh;
  }
  if (!session) throw new Error(`the portal session ${id} of the email ${email.id} is gone`);
  const { url, expires_at } = toPortalSession(session, ctx.workspaceId);
  return { url, expires_at };
}
