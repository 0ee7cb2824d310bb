import type { Ctx } from '../context';
import { tableName } from '../db/client';
import type { CreatedRef } from '../db/effect-claim';
import { getItem } from '../db/items';
import { transactWrite } from '../db/transactions';
import { findCustomerItem } from '../domain/customers/read';
import { findEntityItem } from '../domain/invoicing-entities/read';
import { createPortalSession, newPortalSession, toPortalSession, type PortalSession, type PortalSessionItem } from '../domain/pages/portal-sessions';
import { NotFound, RuleViolation } from '../errors';
import { lastCreated } from '../http/idempotency';
import { newId } from '../ids';
import { LINK_LIFETIMES } from '../pages/links';
import { emailWrites, newEmail, recipientsOf } from './create';
import { emailId, emailKey, emailSettingsOf, type EmailItem } from './email-item';
import { queueEmailAttempt } from './schedule';
import { assertAddressed, assertEmailsOn } from './sendable';

/**
 * `POST /v1/customers/{id}/portal-sessions`: a portal session, and with `send_email: true` its link emailed to the
 * customer (`portal_link`): the session and its email written in one transaction, then the email queued. Refused
 * (422, nothing written) when no email could go out: emails off, no recipient, no sender, the entity switched
 * `portal_link` off.
 */
export async function openPortalSession(ctx: Ctx, customerId: string, body: { send_email?: boolean }): Promise<PortalSession> {
  if (!body.send_email) return createPortalSession(ctx, customerId);
  assertEmailsOn();
  const customer = await findCustomerItem(ctx, customerId);
  if (customer.deleted_at) throw new NotFound('customer', customerId);
  const entity = await findEntityItem(ctx, customer.invoicing_entity_id);
  assertAddressed(customer, entity);
  if (!emailSettingsOf(entity.email_settings).portal_link) {
    throw new RuleViolation('email_kind_off', `The invoicing entity ${entity.id} switched portal_link emails off (email_settings).`);
  }
  const now = ctx.clock.now();
  const session = newPortalSession(ctx, newId('ps', now.getTime()), customer.id, now, LINK_LIFETIMES.portalSeconds);
  const email = newEmail(ctx, {
    id: emailId(session.id),
    kind: 'portal_link',
    event_id: null,
    customer_id: customer.id,
    portal_session_id: session.id,
    ...recipientsOf(customer),
    skipped_reason: null,
    created_at: now.toISOString(),
  });
  const emailed: PortalSessionItem = { ...session, email_id: email.id };
  await transactWrite([{ Put: { TableName: tableName(), Item: emailed, ConditionExpression: 'attribute_not_exists(pk)' } }, ...emailWrites(ctx, email)]);
  await queueEmailAttempt(ctx, email);
  return toPortalSession(emailed, ctx.workspaceId);
}

/**
 * The answer to a retry whose first request wrote the session and its email and died before answering: the session,
 * its email queued again if it still is (the first request may have died before queueing it; a duplicate job is a no-op).
 */
export async function replayPortalSession(ctx: Ctx, created: CreatedRef[]): Promise<PortalSession> {
  const session = await lastCreated<PortalSessionItem>(created, 'portal_session');
  const email = session.email_id ? await getItem<EmailItem>(emailKey(ctx, session.email_id), true) : undefined;
  if (email?.status === 'queued') await queueEmailAttempt(ctx, email);
  return toPortalSession(session, ctx.workspaceId);
}
