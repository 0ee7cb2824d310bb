import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { Forbidden, InvalidRequest } from '../../errors';
import { PATTERNS } from '../../schemas/formats';
import { findProductItem } from '../catalog/read';
import { priceConfigurationKey, type PriceConfigurationItem } from '../catalog/price-configuration';
import type { CustomerItem } from '../customers/customer';
import { findCustomerItem } from '../customers/read';
import { normalizedTaxId } from '../customers/tax-id-format';
import { updateCustomer } from '../customers/update';
import { findEntityItem } from '../invoicing-entities/read';
import { portalSettingsOf, type PortalSettings } from '../invoicing-entities/portal-settings';
import { cancelSubscription } from '../subscriptions/cancel';
import { changeSubscription, previewSubscriptionChange, type ChangePreview } from '../subscriptions/change';
import { undoCancellation } from '../subscriptions/lifecycle';
import { isMetered } from '../subscriptions/metered';
import type { SubscriptionProductInput } from '../subscriptions/prepare';
import { subscriptionNotFound, type SubscriptionItem } from '../subscriptions/subscription';
import { findSubscriptionItem } from '../subscriptions/write';
import { submitOnce, type Submission } from './page-effect';
import type { PortalSessionItem } from './portal-sessions';

/** A portal action the entity's `portal_settings` does not allow: refused, nothing changed. */
export const notAllowed = (what: string) => new Forbidden(`The portal does not allow ${what} (the invoicing entity's portal_settings).`, 'portal_action_not_allowed');

/** A tax id or billing email the portal refuses before saving, by field. */
export const invalidField = (field: 'tax_id' | 'billing_email', message: string) => new InvalidRequest(message, [{ path: `body.${field}`, message }], `invalid_${field}`);

export const settingsOfEntity = async (ctx: Ctx, entityId: string): Promise<PortalSettings> =>
  portalSettingsOf((await findEntityItem(ctx, entityId, true).catch(() => undefined))?.portal_settings);

/** A subscription of the session's customer (another customer's answers as a missing one), with its entity's settings. */
async function customerSubscription(ctx: Ctx, session: PortalSessionItem, id: string): Promise<{ subscription: SubscriptionItem; settings: PortalSettings }> {
  const subscription = await findSubscriptionItem(ctx, id);
  if (subscription.customer_id !== session.customer_id) throw subscriptionNotFound(id);
  return { subscription, settings: await settingsOfEntity(ctx, subscription.invoicing_entity_id) };
}

/** The change a portal form asks: one product of the subscription (`item`) at another price configuration or quantity. */
export interface PortalChange {
  subscription_id: string;
  item: string;
  price_configuration_id: string;
  quantity: string;
}

/**
 * The new product list of a change, as `PATCH /v2/subscriptions/{id}` takes it, once the settings allow it: another
 * price configuration only among `allowed_price_configuration_ids`, another quantity only with `allow_quantity_change`.
 */
async function changedProducts(ctx: Ctx, s: SubscriptionItem, settings: PortalSettings, change: PortalChange): Promise<SubscriptionProductInput[]> {
  const target = s.products.find((p) => p.id === change.item && !isMetered(p));
  if (!target) throw new InvalidRequest(`The subscription has no product '${change.item}' to change.`, [{ path: 'body.item', message: 'is not a product of the subscription' }]);
  const quantity = Number(change.quantity);
  if (!/^\d{1,9}$/.test(change.quantity.trim()) || quantity < 1) {
    throw new InvalidRequest('The quantity is a whole number, 1 or more.', [{ path: 'body.quantity', message: 'must be a whole number, 1 or more' }]);
  }
  const priceChanged = change.price_configuration_id !== target.price_configuration_id;
  if (priceChanged && !(settings.allow_plan_change && settings.allowed_price_configuration_ids.includes(change.price_configuration_id))) throw notAllowed('this plan');
  if (quantity !== target.quantity && !settings.allow_quantity_change) throw notAllowed('changing the quantity');
  if (!priceChanged && quantity === target.quantity) throw new InvalidRequest('Choose another plan or quantity.', [{ path: 'body', message: 'changes nothing' }]);
  const configuration = priceChanged ? await getItem<PriceConfigurationItem>(priceConfigurationKey(ctx, change.price_configuration_id)) : undefined;
  return s.products.map((p) => ({
    product_id: p.id === target.id && configuration ? configuration.product_id : p.product_id,
    price_configuration_id: p.id === target.id ? change.price_configuration_id : p.price_configuration_id,
    quantity: p.id === target.id ? quantity : p.quantity,
  }));
}

/** The portal's preview of a change: what `PATCH /v2/subscriptions/{id}` would do now (previewSubscriptionChange). */
export async function previewPortalChange(ctx: Ctx, session: PortalSessionItem, change: PortalChange): Promise<ChangePreview> {
  const { subscription, settings } = await customerSubscription(ctx, session, change.subscription_id);
  return previewSubscriptionChange(ctx, subscription.id, { products: await changedProducts(ctx, subscription, settings, change) });
}

/** The billing details a customer corrects from the portal. */
export interface BillingDetails {
  billing_email: string;
  line1: string;
  line2: string;
  zip: string;
  city: string;
  state: string;
  country: string;
  tax_id: string;
}

const orNull = (value: string): string | null => value.trim() || null;

/** The update of `PUT /v1/customers/{id}` the details make (the address's name kept), the email and the tax id checked first. */
function customerUpdate(customer: CustomerItem, details: BillingDetails) {
  const email = details.billing_email.trim();
  if (email && !new RegExp(PATTERNS.email).test(email)) throw invalidField('billing_email', 'The billing email is not an e-mail address.');
  const country = details.country.trim().toUpperCase();
  // Checked against the country the form saves (the one the customer sees beside it).
  const taxId = details.tax_id.trim() ? normalizedTaxId(country, details.tax_id) : null;
  if (taxId === undefined) throw invalidField('tax_id', 'The tax id does not have the format of the billing country.');
  return {
    billing_email: email || null,
    billing_address: {
      ...customer.billing_address,
      line1: orNull(details.line1), line2: orNull(details.line2), zip: orNull(details.zip), city: orNull(details.city), state: orNull(details.state), country: orNull(country),
    },
    tax_ids: taxId ? [{ value: taxId }] : [],
  };
}

export type PortalSubscriptionAction =
  | { action: 'cancel'; subscription_id: string }
  | { action: 'reactivate'; subscription_id: string }
  | ({ action: 'change' } & PortalChange);

/**
 * The portal's subscription and billing-details forms, each once per submission (page-effect.ts), each allowed by
 * the entity's `portal_settings` and then done by the API's own function (so it emits the API's events):
 * cancel (`POST /v1/subscriptions/{id}/cancel` in the settings' `cancel_mode`), undo it (`…/reactivate`), change a
 * product now, prorated and invoiced (`PATCH /v2/subscriptions/{id}`), billing details (`PUT /v1/customers/{id}`).
 */
export async function portalSubscriptionAction(ctx: Ctx, session: PortalSessionItem, input: PortalSubscriptionAction, nonce: string): Promise<Submission<unknown>> {
  return submitOnce(ctx, `portal_${input.action}`, nonce, { session: session.id, ...input }, async () => {
    const { subscription, settings } = await customerSubscription(ctx, session, input.subscription_id);
    switch (input.action) {
      case 'cancel':
        if (!settings.allow_cancel) throw notAllowed('cancelling a subscription');
        return cancelSubscription(ctx, subscription.id, { mode: settings.cancel_mode });
      case 'reactivate':
        if (!settings.allow_cancel) throw notAllowed('cancelling a subscription');
        return undoCancellation(ctx, subscription.id);
      case 'change':
        return changeSubscription(ctx, subscription.id, { products: await changedProducts(ctx, subscription, settings, input) });
    }
  });
}

export async function portalBillingDetails(ctx: Ctx, session: PortalSessionItem, details: BillingDetails, nonce: string): Promise<Submission<unknown>> {
  return submitOnce(ctx, 'portal_billing_details', nonce, { session: session.id, ...details }, async () => {
    const customer = await findCustomerItem(ctx, session.customer_id);
    if (!(await settingsOfEntity(ctx, customer.invoicing_entity_id)).allow_billing_details_update) throw notAllowed('updating the billing details');
    return updateCustomer(ctx, customer.id, customerUpdate(customer, details));
  });
}

/** The names a plan select shows: each allowed price configuration's product (active ones only). */
export async function allowedPlans(ctx: Ctx, settings: PortalSettings): Promise<Array<{ id: string; name: string; currency: string }>> {
  if (!settings.allow_plan_change) return [];
  const plans = await Promise.all(
    settings.allowed_price_configuration_ids.map(async (id) => {
      const configuration = await getItem<PriceConfigurationItem>(priceConfigurationKey(ctx, id));
      if (configuration?.status !== 'active') return undefined;
      const product = await findProductItem(ctx, configuration.product_id).catch(() => undefined);
      return product && { id, name: product.name, currency: configuration.currency };
    }),
  );
  return plans.filter((p) => p !== undefined);
}
