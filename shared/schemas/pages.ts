import { NOTICE_NAMES } from '../pages/notices';
import { id, object, out, resource, text, type Schema } from './common';
import { COUNTRIES } from './value-sets';

/** A hosted page's path: its capability link's token (shared/pages/links.ts). */
export const pageTokenPath: Schema = object({ token: text(400, 1) }, ['token']);

/** A receipt of the invoice page: the link's token and the payment's id. */
export const receiptPagePath: Schema = object({ token: text(400, 1), transactionId: id }, ['token', 'transactionId']);

/** `?notice=`: what the page says after one of its forms (a fixed list, shared/pages/notices.ts). */
const notice: Schema = { type: 'string', enum: NOTICE_NAMES };
export const pageQuery: Schema = object({ notice });

/** The portal's: also what Stripe adds when it returns from a SetupIntent's redirect (ignored: its webhook saves the method). */
/** With `change`: the preview of a change of that subscription (its product `item` at `price_configuration_id` × `quantity`), before confirming. */
export const portalPageQuery: Schema = object({
  notice, setup_intent: text(100), setup_intent_client_secret: text(200), redirect_status: text(40),
  change: id, item: id, price_configuration_id: id, quantity: text(12),
});

/** What Stripe adds to a return URL (ignored: the server asks Stripe), and a notice. */
export const pageReturnQuery: Schema = object({
  payment_intent: text(100), payment_intent_client_secret: text(200), redirect_status: text(40),
});

/** A document's download from its page: as `GET /v1/invoices/{id}/download` makes it (default: the entity's). */
export const pageDownloadQuery: Schema = object({ format: { type: 'string', enum: ['pdf', 'facturx', 'ubl', 'cii'] } });

/** The pages' script file. */
export const pageScriptResource: Schema = { type: 'string', contentMediaType: 'text/javascript', description: 'The script (JavaScript).' };

/** A page: HTML (text/html; charset=utf-8), its CSS inlined, no script. */
export const pageResource: Schema = { type: 'string', contentMediaType: 'text/html', description: 'The page (HTML).' };

/** Every form carries its CSRF token (shared/pages/csrf.ts); checked by the page, which says when it is missing. */
const csrf = text(100);
const cardToken = text(200);

export const payForm: Schema = object({ csrf, method: { type: 'string', enum: ['saved', 'card'] }, token: cardToken }, ['method']);

export const signForm: Schema = {
  ...object({ csrf, signer_name: text(255), signer_email: text(320), tax_id: text(100), token: cardToken, accept: { type: 'string', enum: ['yes'] } }),
  // One field per `collect_custom_property_ids` entry: `custom.<property id>`.
  patternProperties: { '^custom\\.[^.]{1,100}$': text(1000) },
};

export const addCardForm: Schema = object({ csrf, token: cardToken }, ['token']);
export const paymentMethodForm: Schema = object({ csrf, payment_method_id: id }, ['payment_method_id']);

/** Cancel, undo the cancellation, or confirm a change (its product `item` at `price_configuration_id` × `quantity`). */
export const portalSubscriptionForm: Schema = object({
  csrf, action: { type: 'string', enum: ['cancel', 'reactivate', 'change'] }, subscription_id: id, item: id, price_configuration_id: id, quantity: text(12),
}, ['action', 'subscription_id']);

/** The billing details: empty fields clear theirs; the tax id's format is checked against the country. */
export const billingDetailsForm: Schema = object({
  csrf, billing_email: text(320), line1: text(255), line2: text(255), zip: text(32), city: text(255), state: text(255),
  country: { type: 'string', enum: ['', ...COUNTRIES] }, tax_id: text(64),
});

export const portalSessionPath: Schema = object({ id, sessionId: id }, ['id', 'sessionId']);

export const portalSessionResource: Schema = resource({
  id: { type: 'string', description: '`ps_…`' },
  customer_id: out.string,
  url: { type: 'string', description: 'The portal: a signed link, valid until `expires_at` (one hour) unless revoked.' },
  created_at: out.dateTime,
  expires_at: out.dateTime,
  revoked_at: out.nullableDateTime,
  email_id: { ...out.nullableString, description: 'The email that carries the link to the customer (`send_email: true`), in GET /v1/emails; null when none was asked.' },
});

export const portalSessionCreateBody: Schema = object({
  send_email: { type: 'boolean', default: false, description: "Also email the link to the customer's billing_email (docs/emails.md, portal_link)." },
});
