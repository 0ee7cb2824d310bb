import type { Address } from '../../domain/customers/customer';
import type { InvoicePage } from '../../domain/pages/invoice-page';
import type { PendingAuthentication } from '../../domain/pages/stripe-page';
import type { MessageKey } from '../../i18n/catalog';
import { document, html, type Markup } from '../html';
import { STRIPE_JS_URL, stripeScriptPath } from '../stripe-script';
import { cardField, csrfField, notice, statusBadge, stripeError, stripeFields, type ViewContext } from './parts';
import { pageLogo } from '../../domain/pages/audience';

export interface InvoiceForms {
  /** The page's own path: forms post to `<path>/pay`, the PDF is `<path>/pdf`. */
  path: string;
  payToken: string;
  /** A message to show after a submission (the outcome, a refusal). */
  flash?: { text: string; kind: 'ok' | 'error' | 'info' };
}

const address = (a: Address | null): Markup =>
  a ? html`${[a.line1, a.line2, [a.zip, a.city].filter(Boolean).join(' '), a.state, a.country].filter(Boolean).map((l) => html`${l}<br>`)}` : html``;

/** What the customer is told of a decline: the sandbox's error types, and Stripe's decline codes. */
const DECLINE_REASONS: Record<string, MessageKey> = {
  payment_method_declined: 'decline.payment_method_declined', generic_decline: 'decline.payment_method_declined', card_declined: 'decline.payment_method_declined',
  declined: 'decline.declined', insufficient_funds: 'decline.declined',
};

const TITLE: Record<string, MessageKey> = { invoice: 'doc.invoice', credit_note: 'doc.credit_note', document: 'doc.document' };

function paySection(view: ViewContext, page: InvoicePage, forms: InvoiceForms): Markup {
  const { t, f } = view;
  const { invoice, savedMethod } = page;
  if (invoice.type !== 'invoice') return html``;
  if (invoice.status === 'paid') return notice(t('pay.paid'), 'ok');
  if (page.chargeInProgress) return notice(t('pay.in_progress'));
  const amount = f.money(invoice.amount_due, invoice.currency);
  if (page.authentication && page.stripe) return authenticationSection(view, page.stripe.publishableKey, page.authentication, forms, amount);
  if (page.pending) return notice(t('pay.in_progress'));
  if (!page.payable) return invoice.amount_due === 0 ? notice(t('pay.nothing_due')) : notice(t('pay.not_payable'));
  const failure = page.lastFailure;
  const reasonKey: MessageKey = DECLINE_REASONS[failure?.error_type ?? ''] ?? 'decline.other';
  return html`
  <section aria-labelledby="pay-title">
    <h2 id="pay-title">${t('pay.title')}</h2>
    ${failure && !forms.flash ? notice(t('pay.failed', { reason: t(reasonKey) }), 'error') : ''}
    ${savedMethod ? html`
    <form method="post" action="${forms.path}/pay">
      ${csrfField(forms.payToken)}<input type="hidden" name="method" value="saved">
      <p>${savedMethod.card ? t('pay.with_saved', { brand: savedMethod.card.brand.toUpperCase(), last4: savedMethod.card.last4 }) : t('pay.with_saved_sepa', { last4: savedMethod.sepa_debit?.last4 ?? '' })}</p>
      <button type="submit">${t('pay.submit', { amount })}</button>
    </form>` : ''}
    ${page.stripe ? html`
    <form id="stripe-pay" method="post" action="${forms.path}/pay" data-stripe-key="${page.stripe.publishableKey}" data-amount="${invoice.amount_due}" data-currency="${invoice.currency.toLowerCase()}">
      ${csrfField(forms.payToken)}<input type="hidden" name="method" value="card"><input type="hidden" name="token" value="">
      <fieldset><legend>${t('pay.new_card')}</legend>${stripeFields(view)}</fieldset>
      ${stripeError}
      <button type="submit"${savedMethod ? html` class="secondary"` : ''}>${t('pay.submit', { amount })}</button>
    </form>` : html`
    <form method="post" action="${forms.path}/pay">
      ${csrfField(forms.payToken)}<input type="hidden" name="method" value="card">
      <fieldset><legend>${t('pay.new_card')}</legend>
        ${cardField(view, 'pay-card')}
      </fieldset>
      <button type="submit"${savedMethod ? html` class="secondary"` : ''}>${t('pay.submit', { amount })}</button>
    </form>`}
  </section>`;
}

/**
 * A charge awaiting 3-D Secure: the button runs Stripe's authentication on the existing PaymentIntent (the page's
 * script), then returns to `<path>/return`, where the server learns the outcome from Stripe. Without the script the
 * form still goes there, and the page says what Stripe says.
 */
function authenticationSection({ t }: ViewContext, publishableKey: string, authentication: PendingAuthentication, forms: InvoiceForms, amount: string): Markup {
  return html`
  <section aria-labelledby="pay-title">
    <h2 id="pay-title">${t('pay.title')}</h2>
    <form id="stripe-action" method="get" action="${forms.path}/return" data-stripe-key="${publishableKey}" data-client-secret="${authentication.clientSecret}"
      data-payment-method="${authentication.paymentMethod ?? ''}" data-return="${forms.path}/return">
      <p>${t('pay.authenticate', { amount })}</p>
      ${stripeError}
      <button type="submit">${t('pay.authenticate_submit')}</button>
    </form>
  </section>`;
}

/** A receipt (PDF) for each successful payment: what a customer files as proof of payment. */
function receiptLinks({ t, f }: ViewContext, invoice: InvoicePage['invoice'], path: string): Markup {
  const payments = invoice.transactions.filter((tx) => tx.type === 'payment' && tx.status === 'succeeded');
  if (payments.length === 0) return html``;
  return html`<ul class="plain">${payments.map((tx) => html`
    <li><a href="${path}/receipts/${tx.id}" download>${t('doc.receipt_link', { date: f.date(tx.process_at), amount: f.money(tx.amount, tx.currency) })}</a></li>`)}</ul>`;
}

/** The invoice as the customer sees it: seller, lines, taxes, totals, amount due, status, due date; PDF; payment. */
export function invoiceView(view: ViewContext, page: InvoicePage, forms: InvoiceForms): string {
  const { t, f } = view;
  const { invoice } = page;
  const money = (amount: number) => f.money(amount, invoice.currency);
  const title = `${t(TITLE[invoice.type] ?? 'doc.invoice')} ${invoice.number ?? ''}`.trim();
  const body = html`
  <h1>${title} ${statusBadge(view, invoice.status, 'invoice_status')}</h1>
  ${forms.flash ? notice(forms.flash.text, forms.flash.kind) : ''}
  ${invoice.original_invoice_number ? html`<p>${t('doc.original_invoice', { number: invoice.original_invoice_number })}</p>` : ''}
  <div class="parties">
    <section aria-labelledby="seller"><h2 id="seller">${t('doc.seller')}</h2>
      <p><strong>${invoice.seller.trade_name ?? invoice.seller.name}</strong><br>${invoice.seller.trade_name ? html`${invoice.seller.name}<br>` : ''}${address(invoice.seller.address)}
      ${invoice.seller.tax_id ? html`${t('doc.tax_id')}: ${invoice.seller.tax_id}` : ''}</p></section>
    <section aria-labelledby="customer"><h2 id="customer">${t('doc.customer')}</h2>
      <p><strong>${invoice.customer.name}</strong><br>${address(invoice.customer.address)}
      ${invoice.customer.vat_number ? html`${t('doc.tax_id')}: ${invoice.customer.vat_number}` : ''}</p></section>
  </div>
  <dl class="facts">
    <dt>${t('doc.number')}</dt><dd>${invoice.number ?? '—'}</dd>
    <dt>${t('doc.issued_at')}</dt><dd>${f.date(invoice.emitted_at)}</dd>
    ${invoice.type === 'invoice' ? html`<dt>${t('doc.due_at')}</dt><dd>${f.date(invoice.due_at)}</dd>` : ''}
  </dl>
  <h2>${t('doc.lines')}</h2>
  <table class="lines">
    <thead><tr><th scope="col">${t('doc.description')}</th><th scope="col" class="num">${t('doc.quantity')}</th><th scope="col" class="num">${t('doc.unit_price')}</th><th scope="col" class="num">${t('doc.tax_rate')}</th><th scope="col" class="num">${t('doc.amount')}</th></tr></thead>
    <tbody>${invoice.line_items.map((line) => html`
      <tr><td>${line.name}${line.description ? html`<br><span class="help">${line.description}</span>` : ''}</td>
      <td class="num" data-label="${t('doc.quantity')}">${f.number(line.units_count)}</td><td class="num" data-label="${t('doc.unit_price')}">${money(line.unit_amount)}</td>
      <td class="num" data-label="${t('doc.tax_rate')}">${f.percent(line.tax_rate)}</td><td class="num" data-label="${t('doc.amount')}">${money(line.amount_excluding_tax)}</td></tr>`)}
    </tbody>
  </table>
  <table class="totals">
    <tbody>
      <tr><th scope="row">${t('doc.subtotal')}</th><td class="num">${money(invoice.amount_excluding_tax)}</td></tr>
      ${invoice.discount_amount > 0 ? html`<tr><th scope="row">${t('doc.discount')}</th><td class="num">${money(-invoice.discount_amount)}</td></tr>` : ''}
      <tr><th scope="row">${t('doc.tax')}</th><td class="num">${money(invoice.tax_amount)}</td></tr>
      <tr><th scope="row">${t('doc.total')}</th><td class="num">${money(invoice.total_amount)}</td></tr>
      ${invoice.amount_paid > 0 ? html`<tr><th scope="row">${t('doc.amount_paid')}</th><td class="num">${money(invoice.amount_paid)}</td></tr>` : ''}
      ${invoice.amount_credited > 0 ? html`<tr><th scope="row">${t('doc.amount_credited')}</th><td class="num">${money(invoice.amount_credited)}</td></tr>` : ''}
      ${invoice.type === 'invoice' ? html`<tr class="due"><th scope="row">${t('doc.amount_due')}</th><td class="num" id="amount-due">${money(invoice.amount_due)}</td></tr>` : ''}
    </tbody>
  </table>
  ${invoice.custom_note ? html`<h2>${t('doc.note')}</h2><p class="pre">${invoice.custom_note}</p>` : ''}
  <p><a href="${forms.path}/pdf" download>${t('doc.download_pdf')}</a></p>
  ${receiptLinks(view, invoice, forms.path)}
  ${paySection(view, page, forms)}`;
  // Stripe.js on the whole page when Stripe is connected, as Stripe asks (its fraud signals), with the page's script.
  const scripts = page.stripe ? [STRIPE_JS_URL, stripeScriptPath(forms.path)] : [];
  return document({ language: f.language, title, body, logo: pageLogo(page.audience), scripts, footer: t('page.secure_footer', { seller: invoice.seller.trade_name ?? invoice.seller.name }) });
}
