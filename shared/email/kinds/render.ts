import type { EmailKind } from '../email-item';
import { renderInvoiceEmail } from './invoices';
import type { Render } from './kind';
import { renderCardExpiring, renderPortalLink, renderTrialEnding } from './notices';
import { renderQuoteSent } from './quotes';

/** How each kind is written when it is sent (the sender's side; the decision is decide.ts). */
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
