import type { CustomerItem } from '../../domain/customers/customer';
import { COUNTRIES } from '../../schemas/value-sets';
import { html, type Markup } from '../html';
import { csrfField, type ViewContext } from './parts';

/** Each country's name in the reader's language; the spec's regions that are no ISO code (PT-20, PT-30) by their code. */
function countryNames(language: string): Array<{ code: string; name: string }> {
  const names = new Intl.DisplayNames([language], { type: 'region' });
  const nameOf = (code: string) => (/^[A-Z]{2}$/.test(code) ? (names.of(code) ?? code) : code);
  return COUNTRIES.map((code) => ({ code, name: nameOf(code) })).sort((a, b) => a.name.localeCompare(b.name, language));
}

const field = (id: string, label: string, name: string, value: string | null | undefined, attributes: Markup = html``): Markup =>
  html`<label for="${id}">${label}</label><input type="text" id="${id}" name="${name}" value="${value ?? ''}" ${attributes}>`;

/** The billing details form: address, tax id (its format checked per country on saving) and billing email. */
export function billingDetailsForm({ t, f }: ViewContext, customer: CustomerItem, path: string, token: string): Markup {
  const address = customer.billing_address;
  const country = address?.country ?? '';
  return html`<form method="post" action="${path}/billing-details" id="billing-details">${csrfField(token)}
    <label for="billing-email">${t('portal.billing_email')}</label>
    <input type="email" id="billing-email" name="billing_email" value="${customer.billing_email ?? ''}" autocomplete="email">
    ${field('billing-line1', t('portal.address_line1'), 'line1', address?.line1, html`autocomplete="address-line1"`)}
    ${field('billing-line2', t('portal.address_line2'), 'line2', address?.line2, html`autocomplete="address-line2"`)}
    ${field('billing-zip', t('portal.zip'), 'zip', address?.zip, html`autocomplete="postal-code"`)}
    ${field('billing-city', t('portal.city'), 'city', address?.city, html`autocomplete="address-level2"`)}
    ${field('billing-state', t('portal.state'), 'state', address?.state, html`autocomplete="address-level1"`)}
    <label for="billing-country">${t('portal.country')}</label>
    <select id="billing-country" name="country" autocomplete="country"><option value=""></option>
      ${countryNames(f.language).map((c) => html`<option value="${c.code}" ${c.code === country ? html`selected` : ''}>${c.name}</option>`)}</select>
    ${field('billing-tax-id', t('portal.tax_id'), 'tax_id', customer.tax_ids[0]?.value, html`aria-describedby="billing-tax-id-help" spellcheck="false"`)}
    <p class="help" id="billing-tax-id-help">${t('portal.tax_id_help')}</p>
    <button type="submit">${t('portal.save_details')}</button></form>`;
}
