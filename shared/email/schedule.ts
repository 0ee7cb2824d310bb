import type { Ctx } from '../context';
import { getItem } from '../db/items';
import { writeUnlessDone } from '../db/transactions';
import type { CustomerItem } from '../domain/customers/customer';
import { findCustomerItem } from '../domain/customers/read';
import type { MessageItem } from '../domain/events/messages';
import type { Invoice } from '../domain/invoices/invoice';
import { orNull } from '../domain/invoices/pdf/download';
import type { EntityItem } from '../domain/invoicing-entities/invoicing-entity';
import { findEntityItem } from '../domain/invoicing-entities/read';
import { deliveryQueue } from '../domain/webhooks/delivery-queue';
import { insertEmail, newEmail, recipientsOf, type EmailDraft } from './create';
import { emailId, emailKey, emailSettingsOf, type EmailItem, type EmailKind, type SkipReason } from './email-item';
import { markInvoiceEmail } from './invoice-email-status';
import { emailsEnabled } from './transport';

/** Which events become which email (docs/emails.md, "What is sent when"). */
const KIND_OF_EVENT: Partial<Record<string, EmailKind>> = {
  'invoice.ready': 'invoice_issued',
  'invoice.settled': 'invoice_paid',
  'invoice.reminder_due': 'invoice_reminder',
};

/**
 * The email an event calls for, decided once: one email item per event (an event addresses one customer) written by
 * a conditional put, then queued. The decision is stored even when nothing is to be sent (`status: skipped` and
 * why), so a batch redelivered after a setting changed still sends nothing for that event, and an event whose email
 * went out sends no second one to an address changed since. An email still queued is queued again (its attempt
 * counter makes the duplicate job a no-op); one sent, failed or skipped is left alone.
 */
export async function scheduleEmails(ctx: Ctx, message: MessageItem): Promise<void> {
  if (!emailsEnabled()) return;
  const kind = KIND_OF_EVENT[message.payload.event_type];
  const invoice = message.payload.data as Partial<Invoice>;
  if (!kind || invoice.type !== 'invoice' || !invoice.id || !invoice.customer_id || !invoice.seller?.id) return;
  const [customer, entity] = await Promise.all([orNull(findCustomerItem(ctx, invoice.customer_id)), orNull(findEntityItem(ctx, invoice.seller.id))]);
  const email = await ensureEmail(ctx, {
    id: emailId(message.event_id),
    kind,
    event_id: message.event_id,
    invoice_id: invoice.id,
    customer_id: invoice.customer_id,
    ...recipientsOf(customer),
    skipped_reason: skipReason(kind, customer, entity),
    created_at: message.created_at,
  });
  await markInvoiceEmail(ctx, email);
  if (email.status === 'queued') await queueEmailAttempt(ctx, email);
}

/** Why an event's email is not sent, if it is not. */
function skipReason(kind: EmailKind, customer: CustomerItem | null, entity: EntityItem | null): SkipReason | null {
  if (!customer?.billing_email) return 'no_recipient';
  if ((customer.billing_email_status ?? 'ok') !== 'ok') return 'bounced';
  if (!entity?.email_from) return 'no_sender';
  if (!emailSettingsOf(entity.email_settings)[kind]) return 'kind_off';
  if (kind === 'invoice_reminder' && !customer.invoice_reminders_enabled) return 'reminders_off';
  return null;
}

async function ensureEmail(ctx: Ctx, draft: EmailDraft): Promise<EmailItem> {
  const fresh = newEmail(ctx, draft);
  if (await writeUnlessDone(insertEmail(ctx, fresh))) return fresh;
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
