import type { QuotePage } from '../../domain/pages/quote-page';
import type { Tier } from '../../domain/pricing/types';
import { intervalText } from '../../domain/quotes/interval-text';
import { document, html, type Markup } from '../html';
import { cardField, csrfField, notice, type ViewContext } from './parts';
import { pageLogo } from '../../domain/pages/audience';

export interface QuoteForms {
  path: string;
  signToken: string;
  flash?: { text: string; kind: 'ok' | 'error' | 'info' };
  /** What the signer typed, shown again after a refusal. */
  values?: Record<string, string>;
}


function tierList(view: ViewContext, tiers: Tier[], currency: string): Markup {
  if (tiers.length === 0) return html``;
  const { t, f } = view;
  return html`<ul class="help">${tiers.map((tier) => {
    const amount = f.money(tier.amount, currency) + (tier.unit_count > 1 ? ` / ${f.number(tier.unit_count)}` : '');
    const text = tier.to === null ? t('quote.tier_open', { from: f.number(tier.from), amount }) : t('quote.tier_range', { from: f.number(tier.from), to: f.number(tier.to), amount });
    return html`<li>${text}</li>`;
  })}</ul>`;
}

function signSection(view: ViewContext, page: QuotePage, forms: QuoteForms): Markup {
  const { t, f } = view;
  const { quote } = page;
  if (quote.status === 'signed') {
    return notice(t('quote.signed', { date: f.date(quote.signed_at), name: quote.signer_name ?? quote.signer_email ?? '—' }), 'ok');
  }
  const value = (name: string) => forms.values?.[name] ?? '';
  return html`
  <section aria-labelledby="sign-title">
    <h2 id="sign-title">${t('quote.sign_title')}</h2>
    <form method="post" action="${forms.path}/sign">
      ${csrfField(forms.signToken)}
      ${quote.collect_payment_details ? html`<fieldset><legend>${t('quote.payment_details')}</legend><p class="help">${t('quote.payment_details_help')}</p>${cardField(view, 'sign-card')}</fieldset>` : ''}
      ${quote.collect_custom_property_ids.length > 0 ? html`<fieldset><legend>${t('quote.custom_properties')}</legend>${quote.collect_custom_property_ids.map((id, i) => html`
        <label for="custom-${i}">${id}</label><input type="text" id="custom-${i}" name="custom.${id}" value="${value(`custom.${id}`)}" required>`)}</fieldset>` : ''}
      <label for="signer-name">${t('quote.signer_name')}</label>
      <input type="text" id="signer-name" name="signer_name" autocomplete="name" value="${value('signer_name')}" required>
      <label for="signer-email">${t('quote.signer_email')}</label>
      <input type="email" id="signer-email" name="signer_email" autocomplete="email" value="${value('signer_email')}" required>
      ${quote.collect_tax_id ? html`<label for="tax-id">${t('quote.tax_id')}</label><input type="text" id="tax-id" name="tax_id" value="${value('tax_id')}" required>` : ''}
      <label class="inline" for="accept"><input type="checkbox" id="accept" name="accept" value="yes" required> ${t('quote.accept')}</label>
      <p><button type="submit">${t('quote.sign_submit')}</button></p>
    </form>
  </section>`;
}

/** The quote as its display flags say (docs/hosted-pages.md, "Quote page"), its terms and comments, and the signature. */
export function quoteView(view: ViewContext, page: QuotePage, forms: QuoteForms): string {
  const { t, f } = view;
  const { quote } = page;
  const money = (amount: number) => f.money(amount, quote.currency);
  const title = t('quote.title', { number: quote.number });
  const phases = quote.display_phase_value;
  const values = quote.display_quote_value;
  const body = html`
  <h1>${title}</h1>
  ${forms.flash ? notice(forms.flash.text, forms.flash.kind) : ''}
  <dl class="facts">
    ${quote.expires_at ? html`<dt>${t('quote.valid_until')}</dt><dd>${f.date(quote.expires_at)}</dd>` : ''}
    ${quote.starts_at ? html`<dt>${t('quote.starts_at')}</dt><dd>${f.date(quote.starts_at)}</dd>` : ''}
  </dl>
  ${page.subscription ? html`
  <h2>${t('quote.current_subscription')}</h2>
  <ul>${page.subscription.products.map((p) => html`<li>${p.name} × ${f.number(p.quantity)}</li>`)}</ul>
  <p>${t('quote.update_notice')}</p>` : ''}
  <table class="lines">
    <thead><tr><th scope="col">${t('quote.product')}</th><th scope="col" class="num">${t('doc.quantity')}</th><th scope="col">${t('quote.billing')}</th>
      ${phases ? html`<th scope="col" class="num">${t('quote.price_per_period')}</th><th scope="col" class="num">${t('quote.periods')}</th>` : ''}
      ${values ? html`<th scope="col" class="num">${t('doc.amount')}</th>` : ''}</tr></thead>
    <tbody>${quote.line_items.map((line, i) => html`
      <tr><td>${line.name}${page.tiers[i]?.length ? html`<br><span class="help">${t('quote.tiers')}</span>${tierList(view, page.tiers[i]!, quote.currency)}` : ''}</td>
      <td class="num" data-label="${t('doc.quantity')}">${f.number(line.quantity)}</td><td data-label="${t('quote.billing')}">${intervalText(view, line.billing_interval)}</td>
      ${phases ? html`<td class="num" data-label="${t('quote.price_per_period')}">${money(line.amount_per_period)}</td><td class="num" data-label="${t('quote.periods')}">${f.number(line.billing_periods)}</td>` : ''}
      ${values ? html`<td class="num" data-label="${t('doc.amount')}">${money(line.amount)}</td>` : ''}</tr>`)}
    </tbody>
  </table>
  <table class="totals"><tbody>
    ${values ? html`<tr class="due"><th scope="row">${t('quote.total_value')}</th><td class="num" id="quote-value">${money(quote.amount)}</td></tr>` : ''}
    ${quote.display_first_invoice_amount ? html`<tr><th scope="row">${t('quote.first_invoice')}</th><td class="num">${money(page.firstInvoiceAmount)}</td></tr>` : ''}
  </tbody></table>
  ${quote.display_taxes ? html`<p class="help">${t('quote.taxes_excluded')}</p>` : ''}
  ${quote.terms ? html`<h2>${t('quote.terms')}</h2><p class="pre">${quote.terms}</p>` : ''}
  ${quote.comments ? html`<h2>${t('quote.comments')}</h2><p class="pre">${quote.comments}</p>` : ''}
  <p><a href="${forms.path}/pdf" download>${t('doc.download_pdf')}</a></p>
  ${signSection(view, page, forms)}`;
  return document({ language: f.language, title, body, logo: pageLogo(page.audience), footer: t('page.secure_footer', { seller: page.audience.sellerName }) });
}
