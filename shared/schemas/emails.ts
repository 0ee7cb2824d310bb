import { EMAIL_KINDS, EMAIL_STATUSES, SKIP_REASONS } from '../email/email-item';
import { arrayOf, enumOf, out, resource, type Schema } from './common';
import { listQuerySchema, type FilterSpec } from './list-query';

/** `GET /v1/emails` filters: what the list index entry of an email holds (`type` is its kind). */
export const emailFilters: FilterSpec = {
  customer_id: { kind: 'string' },
  invoice_id: { kind: 'string' },
  type: { kind: 'enum', values: EMAIL_KINDS },
  status: { kind: 'enum', values: EMAIL_STATUSES },
};

export const emailListQuery = listQuerySchema(emailFilters, { sortable: true });

export const emailResource: Schema = resource({
  id: out.string,
  type: { ...enumOf(EMAIL_KINDS), description: 'What the email is: the invoice issued, its receipt, a payment reminder.' },
  status: { ...enumOf(EMAIL_STATUSES), description: 'queued (to be sent or retried), sent (the provider accepted it), failed (retries exhausted), skipped (nothing sent: see skipped_reason); then, as the provider reports it (SES), delivered, bounced or complained (docs/emails.md).' },
  skipped_reason: enumOf(SKIP_REASONS, true),
  invoice_id: out.string,
  customer_id: out.string,
  event_id: { ...out.nullableString, description: 'The event it was derived from; null for an email sent by hand (POST /v1/invoices/{id}/send).' },
  to: { ...out.nullableString, description: "The customer's billing_email when the email was decided; null when it had none." },
  cc: arrayOf(out.string),
  attempts: out.integer,
  next_attempt_at: out.nullableDateTime,
  last_error: out.nullableString,
  provider_message_id: { ...out.nullableString, description: "The provider's id of the sent message: the SES MessageId, the SMTP server's answer, or the .eml file's path." },
  created_at: out.dateTime,
  sent_at: out.nullableDateTime,
});
