import { EMAIL_KINDS, EMAIL_STATUSES, SKIP_REASONS } from '../email/email-item';
import { arrayOf, enumOf, out, resource, type Schema } from './common';
import { listQuerySchema } from './list-query';
import { emailFilters } from './list-filters';

/** `GET /v1/emails` filters: what the list index entry of an email holds (`type` is its kind). */

export const emailListQuery = listQuerySchema(emailFilters, { sortable: true });

export const emailResource: Schema = resource({
  id: out.string,
  type: {
    ...enumOf(EMAIL_KINDS),
    description: 'What the email is (docs/emails.md): the invoice issued, its receipt, a payment reminder, a failed payment, a payment to confirm (3-D Secure), a credit note issued, a quote to sign, a trial ending, a card expiring, a portal link.',
  },
  status: { ...enumOf(EMAIL_STATUSES), description: 'queued (to be sent or retried), sent (the provider accepted it), failed (retries exhausted), skipped (nothing sent: see skipped_reason); then, as the provider reports it (SES), delivered, bounced or complained (docs/emails.md).' },
  skipped_reason: { ...enumOf(SKIP_REASONS, true), description: 'Why nothing was sent (status skipped): no_recipient, no_sender, kind_off (email_settings), reminders_off (the customer\'s invoice_reminders_enabled), in_reminder (a failed payment told by the reminder of the same failure), bounced (the customer\'s billing_email bounced or complained: billing_email_status).' },
  customer_id: out.string,
  invoice_id: { ...out.nullableString, description: 'The invoice or credit note it is about; null for an email about something else.' },
  quote_id: { ...out.nullableString, description: 'The quote sent for signature (quote_sent).' },
  subscription_id: { ...out.nullableString, description: 'The subscription whose trial ends (trial_ending).' },
  payment_method_id: { ...out.nullableString, description: 'The expiring card (card_expiring).' },
  portal_session_id: { ...out.nullableString, description: 'The portal session whose link it carries (portal_link, trial_ending, card_expiring); revoke it to stop the link.' },
  event_id: { ...out.nullableString, description: 'The event it was derived from; null for an email asked by a request (POST /v1/invoices/{id}/send, a portal session with send_email).' },
  to: { ...out.nullableString, description: "The customer's billing_email when the email was decided (a quote's sent_to); null when it had none." },
  cc: arrayOf(out.string),
  attempts: out.integer,
  next_attempt_at: out.nullableDateTime,
  last_error: out.nullableString,
  provider_message_id: { ...out.nullableString, description: "The provider's id of the sent message: the SES MessageId, the SMTP server's answer, or the .eml file's path." },
  created_at: out.dateTime,
  sent_at: out.nullableDateTime,
});
