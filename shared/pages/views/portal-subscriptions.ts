import type { PortalPage } from '../../domain/pages/portal';
import type { PortalChange } from '../../domain/pages/portal-actions';
import type { ChangePreview } from '../../domain/subscriptions/change';
import type { Subscription } from '../../domain/subscriptions/subscription';
import { html, type Markup } from '../html';
import { csrfField, statusBadge, type ViewContext } from './parts';

/** The subscription forms' CSRF tokens (csrf.ts purposes `subscription_<action>`). */
export interface SubscriptionTokens {
  subscription_cancel: string;
  subscription_reactivate: string;
  subscription_change: string;
}

/** A change previewed (the page's `?change=` step): what it asks and what it would do. */
export interface PreviewedChange {
  change: PortalChange;
  preview: ChangePreview;
}

interface Forms {
  path: string;
  tokens: SubscriptionTokens;
  previewed?: PreviewedChange;
}

const ACTIVE = new Set(['pending', 'trialing', 'active', 'paused']);

const subscriptionForm = (forms: Forms, s: Subscription, action: 'cancel' | 'reactivate', label: string, help: string): Markup => html`
  <form method="post" action="${forms.path}/subscriptions">${csrfField(forms.tokens[`subscription_${action}`])}
    <input type="hidden" name="action" value="${action}"><input type="hidden" name="subscription_id" value="${s.id}">
    <button type="submit" class="secondary">${label}</button> <span class="help">${help}</span></form>`;

/** Cancel at the end of the period (or now, as the settings say), or undo a cancellation scheduled at period end. */
function cancelForm(view: ViewContext, page: PortalPage, forms: Forms, s: Subscription): Markup {
  const { t, f } = view;
  if (!page.settings.allow_cancel) return html``;
  if (s.cancel_at_period_end) return subscriptionForm(forms, s, 'reactivate', t('portal.reactivate'), t('portal.ends_on', { date: f.date(s.ends_at!) }));
  const help = page.settings.cancel_mode === 'immediately' ? t('portal.cancel_now') : t('portal.cancel_at_period_end', { date: f.date(s.current_period_ends_at) });
  return subscriptionForm(forms, s, 'cancel', t('portal.cancel'), help);
}

/**
 * The first step of a change: a GET form back to the portal (`?change=…`), which shows the proration before anything
 * is written. Only what the settings allow is offered; metered products change at the next period, not from here.
 */
function changeForms(view: ViewContext, page: PortalPage, forms: Forms, s: Subscription): Markup[] {
  const { t } = view;
  const { allow_plan_change: plans, allow_quantity_change: quantities } = page.settings;
  if (!plans && !quantities) return [];
  const choices = page.plans.filter((p) => p.currency === s.currency);
  return s.products.filter((p) => !p.aggregator_id).map((p) => {
    const id = `change-${s.id}-${p.id}`;
    const asked = forms.previewed?.change.item === p.id ? forms.previewed.change : undefined;
    const chosen = asked?.price_configuration_id ?? p.price_configuration_id;
    return html`<form method="get" action="${forms.path}" class="change"><fieldset><legend>${t('portal.change', { product: p.name })}</legend>
      <input type="hidden" name="change" value="${s.id}"><input type="hidden" name="item" value="${p.id}">
      ${plans && choices.length ? html`<label for="${id}-plan">${t('portal.plan')}</label><select id="${id}-plan" name="price_configuration_id">
        <option value="${p.price_configuration_id}">${p.name}</option>
        ${choices.filter((c) => c.id !== p.price_configuration_id).map((c) => html`<option value="${c.id}" ${c.id === chosen ? html`selected` : ''}>${c.name}</option>`)}</select>`
        : html`<input type="hidden" name="price_configuration_id" value="${p.price_configuration_id}">`}
      ${quantities ? html`<label for="${id}-quantity">${t('portal.quantity')}</label><input type="number" id="${id}-quantity" name="quantity" min="1" step="1" inputmode="numeric" value="${asked?.quantity ?? String(p.quantity)}">`
        : html`<input type="hidden" name="quantity" value="${String(p.quantity)}">`}
      <button type="submit" class="secondary">${t('portal.preview')}</button></fieldset></form>
      ${asked ? previewSection(view, forms, forms.previewed!) : ''}`;
  });
}

/** The second step: the proration the change makes, computed by the API's own change (previewSubscriptionChange), and its confirmation. */
function previewSection(view: ViewContext, forms: Forms, { change, preview }: PreviewedChange): Markup {
  const { t, f } = view;
  const money = (amount: number) => f.money(amount, preview.currency);
  const rows = [
    ...preview.lines.map((l) => html`<tr><th scope="row">${l.name}</th><td class="num">${money(l.amount)}</td></tr>`),
    ...preview.credits.map((c) => html`<tr><th scope="row">${t('portal.preview_credit', { name: c.name })}</th><td class="num">−${money(c.amount)}</td></tr>`),
  ];
  return html`<section class="preview" aria-labelledby="preview-title"><h3 id="preview-title">${t('portal.preview_title')}</h3>
    ${rows.length ? html`<table class="stack"><caption>${t('portal.preview_lines')}</caption><tbody>${rows}</tbody></table>` : ''}
    <dl class="facts"><dt>${t('portal.preview_due_now')}</dt><dd id="preview-due-now">${money(preview.due_now)}</dd>
      ${preview.to_wallet > 0 ? html`<dt>${t('portal.preview_to_wallet')}</dt><dd id="preview-to-wallet">${money(preview.to_wallet)}</dd>` : ''}</dl>
    <form method="post" action="${forms.path}/subscriptions">${csrfField(forms.tokens.subscription_change)}
      <input type="hidden" name="action" value="change"><input type="hidden" name="subscription_id" value="${change.subscription_id}">
      <input type="hidden" name="item" value="${change.item}"><input type="hidden" name="price_configuration_id" value="${change.price_configuration_id}">
      <input type="hidden" name="quantity" value="${change.quantity}">
      <button type="submit">${t('portal.confirm_change')}</button></form></section>`;
}

/** The customer's subscriptions: what each holds, and the actions its entity's portal_settings allow. */
export function subscriptionsSection(view: ViewContext, page: PortalPage, forms: Forms): Markup[] {
  const { t, f } = view;
  return page.subscriptions.map((s) => html`<li class="block" data-subscription="${s.id}"><div class="row"><span>${s.products.map((p) => `${p.name} × ${f.number(p.quantity)}`).join(', ')}</span>
    ${statusBadge(view, s.status, 'subscription_status')} <span>${t('portal.started', { date: f.date(s.starts_at) })}</span>
    ${s.next_billing_at ? html`<span>${t('portal.next_billing', { date: f.date(s.next_billing_at) })}</span>` : ''}</div>
    ${ACTIVE.has(s.status) ? [cancelForm(view, page, forms, s), ...changeForms(view, page, forms, s)] : ''}</li>`);
}
