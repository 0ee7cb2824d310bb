import type { EmailKind } from '../email-item';
import { INVOICE_EMAILS, renderInvoiceEmail } from './invoices';
import type { EventEmail, Render } from './kind';
import { cardExpiring, renderCardExpiring, renderPortalLink, renderTrialEnding, trialEnding } from './notices';
import { quoteSent, renderQuoteSent } from './quotes';

/** How each kind derived from an event is decided (the portal link is asked by a request, not an event). */
export const EVENT_EMAILS: Record<Exclude<EmailKind, 'portal_link'>, EventEmail> = {
  ...INVOICE_EMAILS,
  quote_sent: quoteSent,
  trial_ending: trialEnding,
  card_expiring: cardExpiring,
};

/** How each kind is written when it is sent. */
export const RENDER: Record<EmailKind, Render> = {
  invoice_issued: renderInvoiceEmail('invoice_issued'),
  invoice_paid: renderInvoiceEmail('invoice_paid'),
  invoice_reminder: renderInvoiceEmail('invoice_reminder'),
  payment_failed: renderInvoiceEmail('payment_failed'),
  payment_action_required: renderInvoiceEmail('payment_action_required'),
  credit_note_issued: renderInvoiceEmail('credit_note_issued'),
  quote_sent: renderQuoteSent,
  trial_ending: renderTrialEnding,
  card_expiring: renderCardExpiring,
  portal_link: renderPortalLink,
};
