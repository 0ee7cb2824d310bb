import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import { collectionKey, listIndexKeys } from '../db/keys';

/** What the service emails customers, each derived from one event, or asked by a request (docs/emails.md). */
export const EMAIL_KINDS = [
  'invoice_issued', 'invoice_paid', 'invoice_reminder', 'payment_failed', 'payment_action_required', 'credit_note_issued', 'quote_sent', 'trial_ending',
  'card_expiring', 'portal_link',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** An entity's switches, by kind (`email_settings`): a kind it never set is on. */
export type EmailSettings = Partial<Record<EmailKind, boolean>>;

export const emailSettingsOf = (settings: EmailSettings | undefined): Record<EmailKind, boolean> =>
  Object.fromEntries(EMAIL_KINDS.map((kind) => [kind, settings?.[kind] ?? true])) as Record<EmailKind, boolean>;

/** Why an event's email was not sent: the customer has no `billing_email`, the entity no `email_from`, the entity
 * switched the kind off (`email_settings`), the customer turned reminders off (`invoice_reminders_enabled`), the
 * failed payment is told by the reminder the same failure made (one email per failure), the customer's `billing_email`
 * bounced or complained (`billing_email_status`, until the address changes). */
export const SKIP_REASONS = ['no_recipient', 'no_sender', 'kind_off', 'reminders_off', 'in_reminder', 'bounced'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What an email is about, besides its customer: the ids it names (absent: none). */
export interface EmailRefs {
  /** An invoice, or a credit note (an invoice item too). */
  invoice_id?: string;
  quote_id?: string;
  subscription_id?: string;
  payment_method_id?: string;
  /** The portal session whose link it carries (portal_link, trial_ending, card_expiring). */
  portal_session_id?: string;
}
export const EMAIL_REFS = ['invoice_id', 'quote_id', 'subscription_id', 'payment_method_id', 'portal_session_id'] as const satisfies readonly (keyof EmailRefs)[];

/**
 * The email of one event (to its customer's addressee): `WS#<ws>#EML` / `eml_<hash of the event id>`. Written
 * conditionally by the stream handler before anything is sent, so a redelivered batch finds it and sends nothing new;
 * written too when nothing is to be sent (`skipped`), so that decision is taken once as well.
 * `attempts` only grows, by a write conditioned on its previous value; `lease_until` is set by the worker sending it,
 * so a duplicate job does not send it at the same time, and a worker that died mid-send leaves it to the retry.
 */
export interface EmailItem extends EmailRefs {
  pk: string;
  sk: string;
  _type: 'email';
  /** In the list index (`GET /v1/emails`), oldest first; `lf` holds what its filters read, `status` kept current. */
  gsi1pk: string;
  gsi1sk: string;
  lf: EmailListFields;
  id: string;
  kind: EmailKind;
  /** The event it was derived from; null for one asked by a request (`POST /v1/invoices/{id}/send`, a portal link). */
  event_id: string | null;
  customer_id: string;
  /** The customer's `billing_email` when the event happened (null: it had none); a quote's `sent_to`. */
  to: string | null;
  cc: string[];
  status: EmailStatus;
  skipped_reason: SkipReason | null;
  attempts: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  last_error: string | null;
  /** The transport's id of the sent message (SES MessageId, the SMTP server's answer, the .eml path). */
  provider_message_id: string | null;
  created_at: string;
  sent_at: string | null;
}

/** `delivered`, `bounced` and `complained` come after `sent`, from the provider's notifications (shared/email/feedback.ts). */
export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'skipped', 'delivered', 'bounced', 'complained'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** The members `GET /v1/emails` filters on, in the index entry (`type` is the email's kind). */
export interface EmailListFields {
  [field: string]: string | undefined;
  customer_id: string;
  /** Only on an email of an invoice or credit note. */
  invoice_id?: string;
  type: EmailKind;
  status: EmailStatus;
}

/** The invoice's `email_status`: its latest email's status, or `no_recipient` when that email had no one to go to. */
export const INVOICE_EMAIL_STATUSES = ['no_recipient', ...EMAIL_STATUSES] as const;
export type InvoiceEmailStatus = (typeof INVOICE_EMAIL_STATUSES)[number];

export const EMAILS = 'EML';
export const emailKey = (ctx: Ctx, id: string) => collectionKey(ctx, EMAILS, id);

/** The keys of a new email: its item, its list index entry and the entry's filterable fields. */
export const newEmailKeys = (ctx: Ctx, email: Pick<EmailItem, 'id' | 'created_at' | 'customer_id' | 'invoice_id' | 'kind' | 'status'>) => ({
  ...emailKey(ctx, email.id),
  ...listIndexKeys(ctx, EMAILS, email.created_at, email.id),
  lf: { customer_id: email.customer_id, ...(email.invoice_id && { invoice_id: email.invoice_id }), type: email.kind, status: email.status } satisfies EmailListFields,
});

/** Stable per event (or per request's resource, e.g. a portal session): a redelivered event names the same email. */
export const emailId = (eventId: string): string => `eml_${createHash('sha256').update(`email#${eventId}`).digest('base64url').slice(0, 26)}`;

/** The RFC 5322 Message-ID of an email: the same on every attempt, so a receiver can tell a retry from a new email. */
export const messageIdHeader = (id: string, from: string): string => `<${id}@${from.split('@')[1] ?? 'billing-api.invalid'}>`;
