import { findLinkedQuote, quotePage, signFromPage } from '../../shared/domain/pages/quote-page';
import type { Translate } from '../../shared/i18n/catalog';
import { formToken } from '../../shared/pages/csrf';
import { backTo, formNonce, isRefusal, page, pageHandler, viewContext, type Opened } from '../../shared/pages/page-handler';
import { quoteView } from '../../shared/pages/views/quote';
import { route } from '../../shared/schemas/generated/quotePageSign.js';

type SignForm = Record<string, string | undefined>;

const CUSTOM = 'custom.';

/** The label of a field the signature needs (a custom property is named by its id). */
const LABELS: Record<string, Parameters<Translate>[0]> = {
  signer_name: 'quote.signer_name', signer_email: 'quote.signer_email', token: 'quote.payment_details', tax_id: 'quote.tax_id',
};

/** The quote page again (422), saying why the signature was refused, with what the signer typed. */
async function refused(opened: Opened, form: SignForm, reason: (t: Translate) => string) {
  const data = await quotePage(opened.ctx, opened.claims.id, opened.claims.generation);
  const view = viewContext(data.audience.language, data.audience.timeZone);
  const values = Object.fromEntries(Object.entries(form).filter(([name]) => name !== 'csrf' && name !== 'token')) as Record<string, string>;
  return page(422, quoteView(view, data, { path: opened.path, signToken: formToken(opened.token, 'sign'), flash: { text: reason(view.t), kind: 'error' }, values }));
}

/**
 * The signature form: what the quote collects, then `POST /v1/quotes/{id}/sign`'s signature, once per form; back to
 * the quote page (signed). A refusal (a missing field, a card refused, the quote expired…) shows the page again
 * with the reason and what the signer typed.
 */
export const handler = pageHandler<SignForm>(route, 'quote', async (opened, input) => {
  const nonce = formNonce(opened, input, 'sign');
  if (!nonce) return backTo(opened.path, 'form_expired');
  const form = input.body;
  const item = await findLinkedQuote(opened.ctx, opened.claims.id, opened.claims.generation);
  if (item.status === 'signed') return backTo(opened.path);
  if (form.accept !== 'yes') return refused(opened, form, (t) => t('quote.field_required', { field: t('quote.accept') }));
  const custom = Object.fromEntries(Object.entries(form).filter(([name]) => name.startsWith(CUSTOM)).map(([name, value]) => [name.slice(CUSTOM.length), value ?? '']));
  try {
    await signFromPage(opened.ctx, item, {
      signer_name: form.signer_name ?? '', signer_email: form.signer_email ?? '', token: form.token, tax_id: form.tax_id, custom_properties: custom,
    }, nonce);
    return backTo(opened.path, 'signed');
  } catch (error) {
    if (!isRefusal(error)) throw error;
    if (error.code === 'idempotency_key_in_progress' || error.code === 'invalid_state_transition') return backTo(opened.path, 'not_signable');
    if (error.code === 'field_required') return refused(opened, form, (t) => t('quote.field_required', { field: LABELS[error.message] ? t(LABELS[error.message]!) : error.message }));
    if (error.code === 'payment_method_invalid') return refused(opened, form, (t) => t('pay.card_refused'));
    return refused(opened, form, (t) => t('form.error', { message: error.message }));
  }
});
