import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../context';
import { db, tableName } from '../db/client';
import { getItem } from '../db/items';
import { writeUnlessDone } from '../db/transactions';
import { findCustomerItem } from '../domain/customers/read';
import type { MessageItem } from '../domain/events/messages';
import type { Invoice } from '../domain/invoices/invoice';
import { orNull } from '../domain/invoices/pdf/download';
import { findEntityItem } from '../domain/invoicing-entities/read';
import { deliveryQueue } from '../domain/webhooks/delivery-queue';
import { emailId, emailKey, type EmailItem, type EmailKind } from './email-item';
import { emailsEnabled } from './transport';

/** Which events become which email (docs/emails.md, "What is sent when"). */
const KIND_OF_EVENT: Partial<Record<string, EmailKind>> = {
  'invoice.ready': 'invoice_issued',
  'invoice.settled': 'invoice_paid',
  'invoice.reminder_due': 'invoice_reminder',
};

/**
 * The email an event calls for, if any: written once per (event, addressee) by a conditional put, then queued.
 * Safe to run again for the same message (a redelivered stream batch): an email still queued is queued again, and
 * its attempt counter makes the duplicate job a no-op; one already sent is left alone.
 * Nothing is derived when emails are off (no EMAIL_TRANSPORT), the entity has no `email_from`, the customer has no
 * `billing_email`, or, for reminders, the customer turned them off.
 */
export async function scheduleEmails(ctx: Ctx, message: MessageItem): Promise<void> {
  if (!emailsEnabled()) return;
  const kind = KIND_OF_EVENT[message.payload.event_type];
  const invoice = message.payload.data as Partial<Invoice>;
  if (!kind || invoice.type !== 'invoice' || !invoice.id || !invoice.customer_id || !invoice.seller?.id) return;
  const [customer, entity] = await Promise.all([orNull(findCustomerItem(ctx, invoice.customer_id)), orNull(findEntityItem(ctx, invoice.seller.id))]);
  if (!customer?.billing_email || !entity?.email_from) return;
  if (kind === 'invoice_reminder' && !customer.invoice_reminders_enabled) return;
  const email = await ensureEmail(ctx, {
    id: emailId(message.event_id, customer.billing_email),
    kind,
    event_id: message.event_id,
    invoice_id: invoice.id,
    customer_id: customer.id,
    to: customer.billing_email,
    cc: customer.invoice_emails.filter((address) => address.toLowerCase() !== customer.billing_email!.toLowerCase()),
    created_at: message.created_at,
  });
  if (email.status === 'queued') await queueEmailAttempt(ctx, email);
}

type Draft = Pick<EmailItem, 'id' | 'kind' | 'event_id' | 'invoice_id' | 'customer_id' | 'to' | 'cc' | 'created_at'>;

async function ensureEmail(ctx: Ctx, draft: Draft): Promise<EmailItem> {
  const fresh: EmailItem = {
    ...emailKey(ctx, draft.id),
    _type: 'email',
    ...draft,
    status: 'queued',
    attempts: 0,
    next_attempt_at: draft.created_at,
    lease_until: null,
    last_error: null,
    provider_message_id: null,
    sent_at: null,
  };
  const put = db.send(new PutCommand({ TableName: tableName(), Item: fresh, ConditionExpression: 'attribute_not_exists(pk)' }));
  if (await writeUnlessDone(put)) return fresh;
  return (await getItem<EmailItem>(emailKey(ctx, draft.id), true))!;
}

export const queueEmailAttempt = (ctx: Ctx, email: EmailItem) =>
  deliveryQueue(() => ctx.clock.now()).enqueue({
    kind: 'email',
    workspaceId: ctx.workspaceId,
    emailId: email.id,
    attempt: email.attempts + 1,
    notBefore: email.next_attempt_at ?? ctx.clock.now().toISOString(),
  });
