import type { Invoice } from '../../domain/invoices/invoice';
import { emailSettingsOf, type EmailKind } from '../email-item';
import type { EventEmail } from './kind';

/*
 * How each kind derived from an event is decided, from the event's data alone: whom it addresses and what it names,
 * and the kind's own reasons not to send it. The stream handler imports this, not the renderers (render.ts), whose
 * document reads and PDF rendering belong to the sender's bundle.
 */

/** The portal session a notice's email carries: named after the email, so every attempt carries the same link. */
export const noticeSessionId = (emailId: string): string => `ps_${emailId.slice('eml_'.length)}`;

const ofType = (type: Invoice['type']): EventEmail['target'] => (data) =>
  data.type === type && data.id && data.customer_id && data.seller?.id ? { customer_id: data.customer_id, entity_id: data.seller.id, invoice_id: data.id } : undefined;

/**
 * A failed collection attempt that also made a reminder (the customer gets reminders) is told once, by the reminder
 * (which says the charge failed), unless the entity switched reminders off: then by the payment-failed email.
 */
const paymentFailed: EventEmail = {
  target: ofType('invoice'),
  skip: (data, customer, entity) => {
    const dunning = data.dunning as Invoice['dunning'];
    const reminded = !!dunning?.reminder && dunning.reminder.at === dunning.last_attempt_at;
    return reminded && customer.invoice_reminders_enabled && emailSettingsOf(entity.email_settings).invoice_reminder ? 'in_reminder' : null;
  },
};

/** The customer's notices carry a portal session of their own (portal-link.ts). */
const notice = (ref: 'subscription_id' | 'payment_method_id', entityOf?: string): EventEmail['target'] => (data, emailId) =>
  data.id && data.customer_id
    ? { customer_id: data.customer_id, ...(entityOf && { entity_id: data[entityOf] }), [ref]: data.id, portal_session_id: noticeSessionId(emailId) }
    : undefined;

/** Every kind but the portal link, which a request asks for (portal-request.ts). */
export const EVENT_EMAILS: Record<Exclude<EmailKind, 'portal_link'>, EventEmail> = {
  invoice_issued: { target: ofType('invoice') },
  invoice_paid: { target: ofType('invoice') },
  invoice_reminder: { target: ofType('invoice'), skip: (_data, customer) => (customer.invoice_reminders_enabled ? null : 'reminders_off') },
  payment_failed: paymentFailed,
  payment_action_required: { target: ofType('invoice') },
  credit_note_issued: { target: ofType('credit_note') },
  // To the address the send named (`sent_to`, with its message), not the customer's billing address.
  quote_sent: {
    target: (data) =>
      data.id && data.customer_id && data.invoicing_entity_id
        ? { customer_id: data.customer_id, entity_id: data.invoicing_entity_id, quote_id: data.id, recipients: { to: data.sent_to ?? null, cc: [] } }
        : undefined,
  },
  trial_ending: { target: notice('subscription_id', 'invoicing_entity_id') },
  // A card's entity is its customer's.
  card_expiring: { target: (data, emailId) => (data.card ? notice('payment_method_id')(data, emailId) : undefined) },
};
