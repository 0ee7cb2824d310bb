import type { Invoice } from '../../domain/invoices/invoice';
import { canMove } from '../../domain/invoices/transitions';
import type { PortalPage } from '../../domain/pages/portal';
import { document, html, type Markup } from '../html';
import { STRIPE_JS_URL, stripeScriptPath } from '../stripe-script';
import { cardField, csrfField, notice, statusBadge, stripeError, stripeFields, type ViewContext } from './parts';
import { billingDetailsForm } from './portal-billing';
import { subscriptionsSection, type PreviewedChange, type SubscriptionTokens } from './portal-subscriptions';
import { pageLogo } from '../../domain/pages/audience';

export interface PortalForms {
  path: string;
  /** One CSRF token per form kind (csrf.ts purposes). */
  tokens: { add_card: string; make_default: string; remove: string; billing_details: string } & SubscriptionTokens;
  /** The change previewed before it is confirmed (`?change=`). */
  previewed?: PreviewedChange;
  expiresAt: string;
  flash?: { text: string; kind: 'ok' | 'error' | 'info' };
  /** Stripe connected: "add a card" confirms this SetupIntent with the Payment Element, else the sandbox form. */
  stripe?: { publishableKey: string; clientSecret: string } | null;
}

/** A document of the list: its own page (its capability link), its PDF and e-invoice (EN 16931 UBL), and a pay link while something is due. */
function documentRow(view: ViewContext, doc: Invoice): Markup {
  const { t, f } = view;
  const payable = doc.type === 'invoice' && canMove(doc, 'charge') && doc.amount_due > 0;
  return html`<li><a href="${doc.public_url}">${doc.number ?? doc.id}</a> <span>${f.date(doc.emitted_at)}</span>
    <span>${f.money(doc.total_amount, doc.currency)}</span> ${statusBadge(view, doc.status, 'invoice_status')}
    <a href="${doc.public_url}/pdf" download aria-label="${t('portal.download')} ${doc.number ?? doc.id}">${t('portal.download')}</a>
    <a href="${doc.public_url}/pdf?format=ubl" download aria-label="${t('portal.einvoice')} ${doc.number ?? doc.id}">${t('portal.einvoice')}</a>
    ${payable ? html`<a href="${doc.public_url}#pay-title">${t('portal.pay')} ${f.money(doc.amount_due, doc.currency)}</a>` : ''}</li>`;
}

const list = (view: ViewContext, items: Markup[]): Markup => (items.length ? html`<ul class="plain">${items}</ul>` : html`<p>${view.t('portal.none')}</p>`);

/** The customer portal: documents, subscriptions, payment methods (add, default, remove), balances, current usage. */
export function portalView(view: ViewContext, page: PortalPage, forms: PortalForms): string {
  const { t, f } = view;
  const customer = page.audience.customer;
  const title = t('portal.title');
  const body = html`
  <h1>${t('portal.greeting', { customer: customer.name })}</h1>
  ${forms.flash ? notice(forms.flash.text, forms.flash.kind) : ''}
  <p class="help">${t('portal.session_ends', { time: f.time(forms.expiresAt) })}</p>

  <h2>${t('portal.invoices')}</h2>
  ${list(view, page.invoices.map((doc) => documentRow(view, doc)))}
  <h2>${t('portal.credit_notes')}</h2>
  ${list(view, page.creditNotes.map((doc) => documentRow(view, doc)))}

  <h2>${t('portal.subscriptions')}</h2>
  ${list(view, subscriptionsSection(view, page, forms))}

  <h2>${t('portal.payment_methods')}</h2>
  ${list(view, page.paymentMethods.map((m) => {
    const card = m.card
      ? t('portal.card', { brand: m.card.brand.toUpperCase(), last4: m.card.last4, month: String(m.card.exp_month).padStart(2, '0'), year: m.card.exp_year })
      : t('portal.sepa_debit', { last4: m.sepa_debit?.last4 ?? '' });
    return html`<li data-payment-method="${m.id}"><span>${card}</span>
      ${m.is_default ? html`<strong>${t('portal.default')}</strong>` : html`
      <form method="post" action="${forms.path}/payment-methods/default">${csrfField(forms.tokens.make_default)}<input type="hidden" name="payment_method_id" value="${m.id}">
        <button type="submit" class="secondary" aria-label="${t('portal.make_default')}: ${card}">${t('portal.make_default')}</button></form>`}
      <form method="post" action="${forms.path}/payment-methods/remove">${csrfField(forms.tokens.remove)}<input type="hidden" name="payment_method_id" value="${m.id}">
        <button type="submit" class="secondary" aria-label="${t('portal.remove')}: ${card}">${t('portal.remove')}</button></form></li>`;
  }))}
  ${forms.stripe ? html`
  <form id="stripe-card" method="post" action="${forms.path}/payment-methods" data-stripe-key="${forms.stripe.publishableKey}" data-client-secret="${forms.stripe.clientSecret}" data-return="${forms.path}">
    ${csrfField(forms.tokens.add_card)}<input type="hidden" name="token" value="">
    <fieldset><legend>${t('portal.add_card')}</legend>${stripeFields(view)}</fieldset>
    ${stripeError}
    <button type="submit">${t('portal.add_card_submit')}</button>
  </form>` : html`
  <form method="post" action="${forms.path}/payment-methods">
    ${csrfField(forms.tokens.add_card)}
    <fieldset><legend>${t('portal.add_card')}</legend>${cardField(view, 'portal-card')}</fieldset>
    <button type="submit">${t('portal.add_card_submit')}</button>
  </form>`}

  <h2>${t('portal.balances')}</h2>
  ${list(view, [
    ...(page.wallet ? [html`<li><span>${t('portal.wallet')}</span> <strong id="wallet-balance">${f.money(page.wallet.amount, page.wallet.currency)}</strong></li>`] : []),
    ...page.credits.map((c) => html`<li><span>${t('portal.credits', { product: c.name })}</span> <strong>${t('portal.credit_count', { count: f.number(c.balance) })}</strong></li>`),
  ])}

  <h2>${t('portal.usage')}</h2>
  ${list(view, page.usage.map((u) => html`<li>${t('portal.usage_line', { product: u.product, value: f.number(u.value), unit: u.unit, date: f.date(u.since) })}</li>`))}

  ${page.settings.allow_billing_details_update ? html`<h2>${t('portal.billing_details')}</h2>${billingDetailsForm(view, customer, forms.path, forms.tokens.billing_details)}` : ''}`;
  const scripts = forms.stripe ? [STRIPE_JS_URL, stripeScriptPath(forms.path)] : [];
  return document({ language: f.language, title, body, logo: pageLogo(page.audience), scripts, footer: t('page.secure_footer', { seller: page.audience.sellerName }) });
}
