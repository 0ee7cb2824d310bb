import { findCustomerItem } from '../../domain/customers/read';
import { paymentMethodKey, type PaymentMethodItem } from '../../domain/payment-methods/payment-method';
import { findSubscriptionItem } from '../../domain/subscriptions/write';
import { getItem } from '../../db/items';
import type { CardDetails } from '../../domain/payments/provider';
import type { EmailMessage } from '../content';
import type { Render, Wording } from './kind';
import { portalLinkOf } from './portal-link';

/*
 * The customer's notices, each with a link to its billing portal (docs/emails.md): the trial ending
 * (`subscription.trial_ending`, 3 days before), a saved card expiring (`payment_method.expiring`, 30 days before the
 * end of its expiry month), and the portal link asked by `POST /v1/customers/{id}/portal-sessions` with `send_email`.
 */

/** The trial's end, and the portal where the customer checks its payment method. */
export function trialMessage(trialEndsAt: string | null | undefined, url: string, { t, format, seller }: Wording): EmailMessage {
  const values = { seller, date: format.date(trialEndsAt) };
  return { subject: t('email.trial_ending.subject', values), paragraphs: [t('email.trial_ending.intro', values)], action: { label: t('email.open_portal'), url } };
}

/** The card, the last day it works (the end of its expiry month), and the portal where a new one is added. */
export function cardMessage(card: CardDetails, url: string, { t, format, seller }: Wording): EmailMessage {
  const lastDay = new Date(Date.UTC(card.exp_year, card.exp_month, 0)).toISOString();
  const values = { seller, brand: card.brand, last4: card.last4, date: format.date(lastDay) };
  return { subject: t('email.card_expiring.subject', values), paragraphs: [t('email.card_expiring.intro', values)], action: { label: t('email.open_portal'), url } };
}

/** The portal link and until when it works. */
export function portalMessage(expiresAt: string, url: string, { t, format, seller }: Wording): EmailMessage {
  const values = { seller, expires: `${format.date(expiresAt)} ${format.time(expiresAt)}` };
  return { subject: t('email.portal_link.subject', values), paragraphs: [t('email.portal_link.intro', values)], action: { label: t('email.open_portal'), url } };
}

export const renderTrialEnding: Render = async (ctx, email) => {
  const [subscription, portal] = await Promise.all([findSubscriptionItem(ctx, email.subscription_id!), portalLinkOf(ctx, email)]);
  return { entityId: subscription.invoicing_entity_id, attachments: [], message: (wording) => trialMessage(subscription.trial_ends_at, portal.url, wording) };
};

export const renderCardExpiring: Render = async (ctx, email) => {
  const [method, customer, portal] = await Promise.all([
    getItem<PaymentMethodItem>(paymentMethodKey(ctx, email.payment_method_id!), true), findCustomerItem(ctx, email.customer_id), portalLinkOf(ctx, email),
  ]);
  const card = method?.card;
  if (!card) throw new Error(`the payment method ${email.payment_method_id} of the email ${email.id} is no card`);
  return { entityId: customer.invoicing_entity_id, attachments: [], message: (wording) => cardMessage(card, portal.url, wording) };
};

export const renderPortalLink: Render = async (ctx, email) => {
  const [customer, portal] = await Promise.all([findCustomerItem(ctx, email.customer_id), portalLinkOf(ctx, email)]);
  return { entityId: customer.invoicing_entity_id, attachments: [], message: (wording) => portalMessage(portal.expires_at, portal.url, wording) };
};
