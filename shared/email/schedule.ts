import type { Ctx } from '../context';
import { getItem } from '../db/items';
import { writeUnlessDone } from '../db/transactions';
import type { CustomerItem } from '../domain/customers/customer';
import { findCustomerItem } from '../domain/customers/read';
import type { MessageItem } from '../domain/events/messages';
import { orNull } from '../domain/invoices/pdf/download';
import type { EntityItem } from '../domain/invoicing-entities/invoicing-entity';
import { findEntityItem } from '../domain/invoicing-entities/read';
import { deliveryQueue } from '../domain/webhooks/delivery-queue';
import { insertEmail, newEmail, recipientsOf, type EmailDraft } from './create';
import { emailId, emailKey, emailSettingsOf, type EmailItem, type SkipReason } from './email-item';
import { markInvoiceEmail } from './invoice-email-status';
import { EVENT_EMAILS } from './kinds/decide';
import type { EventData } from './kinds/kind';
import { emailsEnabled } from './transport';

/** Which events become which email (docs/emails.md, "What is sent when"). */
const KIND_OF_EVENT: Partial<Record<string, keyof typeof EVENT_EMAILS>> = {
  'invoice.ready': 'invoice_issued',
  'invoice.settled': 'invoice_paid',
  'invoice.reminder_due': 'invoice_reminder',
  'invoice.payment_failed': 'payment_failed',
  'invoice.payment_action_required': 'payment_action_required',
  'credit_note.ready': 'credit_note_issued',
  'quote.sent': 'quote_sent',
  'subscription.trial_ending': 'trial_ending',
  'payment_method.expiring': 'card_expiring',
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
  if (!kind) return;
  const id = emailId(message.event_id);
  const data = message.payload.data as EventData;
  const target = EVENT_EMAILS[kind].target(data, id);
  if (!target) return;
  const { entity_id, recipients, ...refs } = target;
  const customer = await orNull(findCustomerItem(ctx, refs.customer_id));
  const entityId = entity_id ?? customer?.invoicing_entity_id;
  const entity = entityId ? await orNull(findEntityItem(ctx, entityId)) : null;
  const addressees = recipients ?? recipientsOf(customer);
  const email = await ensureEmail(ctx, {
    id,
    kind,
    event_id: message.event_id,
    ...refs,
    ...addressees,
    skipped_reason: skipReason(kind, data, addressees.to, customer, entity),
    created_at: message.created_at,
  });
  await markInvoiceEmail(ctx, email);
  if (email.status === 'queued') await queueEmailAttempt(ctx, email);
}

/** Why an event's email is not sent, if it is not: the same for every kind, then the kind's own reasons. */
function skipReason(kind: keyof typeof EVENT_EMAILS, data: EventData, to: string | null, customer: CustomerItem | null, entity: EntityItem | null): SkipReason | null {
  if (!to || !customer) return 'no_recipient';
  // A bounced or complaining billing_email gets nothing until it changes (email-feedback: billing_email_status).
  if (to === customer.billing_email && (customer.billing_email_status ?? 'ok') !== 'ok') return 'bounced';
  if (!entity?.email_from) return 'no_sender';
  if (!emailSettingsOf(entity.email_settings)[kind]) return 'kind_off';
  return EVENT_EMAILS[kind].skip?.(data, customer, entity) ?? null;
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
