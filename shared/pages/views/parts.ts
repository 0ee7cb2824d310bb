import type { Formatter } from '../../i18n/format';
import type { MessageKey, Translate } from '../../i18n/catalog';
import { html, type Markup } from '../html';

/** What every view needs: the texts and formats of the reader's language. */
export interface ViewContext {
  t: Translate;
  f: Formatter;
}

export const csrfField = (token: string): Markup => html`<input type="hidden" name="csrf" value="${token}">`;

export const notice = (text: string, kind: 'info' | 'ok' | 'error' = 'info'): Markup =>
  html`<div class="notice ${kind === 'info' ? '' : kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</div>`;

/**
 * The card entry of the sandbox provider: a text field taking its test tokens. A real provider's hosted fields take
 * this field's place (docs/hosted-pages.md): its script fills the same `token` field with the token it issues.
 */
export const cardField = ({ t }: ViewContext, id: string, required = true): Markup => html`
  <label for="${id}">${t('pay.card_label')}</label>
  <input type="text" id="${id}" name="token" autocomplete="off" spellcheck="false" ${required ? html`required` : ''} aria-describedby="${id}-help">
  <p class="help" id="${id}-help">${t('pay.card_help')}</p>`;

/** Where Stripe's Payment Element mounts (the page's script), and what it is. */
export const stripeFields = ({ t }: ViewContext): Markup => html`<div data-payment-element></div><p class="help">${t('pay.card_stripe_help')}</p>`;

/** Where the page's script says what Stripe refused (the card, the authentication), hidden until then. */
export const stripeError = html`<div class="notice error" role="alert" data-stripe-error hidden></div>`;

export const statusBadge = ({ t }: ViewContext, status: string, prefix: 'invoice_status' | 'subscription_status'): Markup => {
  const key = `${prefix}.${status}` as MessageKey;
  return html`<span class="status status-${status}">${t(key)}</span>`;
};
