/**
 * What a customer may do from the portal (docs/hosted-pages.md, "Portal settings"), after Stripe's billing portal
 * configuration (`subscription_cancel`, `subscription_update`, `customer_update`) and its defaults: cancelling at
 * period end and correcting the billing details on; changing plan or quantity off until the entity says which price
 * configurations a customer may switch to.
 */
export interface PortalSettings {
  allow_cancel: boolean;
  /** `end_of_period` (undone from the portal until then) or `immediately`. */
  cancel_mode: 'end_of_period' | 'immediately';
  allow_plan_change: boolean;
  /** The price configurations a subscription's product may be switched to (other products' included). */
  allowed_price_configuration_ids: string[];
  allow_quantity_change: boolean;
  /** Billing address, tax id and billing email. */
  allow_billing_details_update: boolean;
}

export const PORTAL_CANCEL_MODES = ['end_of_period', 'immediately'] as const;
export const MAX_PORTAL_PRICES = 20;

export const DEFAULT_PORTAL_SETTINGS: Readonly<PortalSettings> = {
  allow_cancel: true,
  cancel_mode: 'end_of_period',
  allow_plan_change: false,
  allowed_price_configuration_ids: [],
  allow_quantity_change: false,
  allow_billing_details_update: true,
};

/** As stored, members left out of the last update are absent: they take their defaults. */
export const portalSettingsOf = (stored: Partial<PortalSettings> | undefined): PortalSettings => ({ ...DEFAULT_PORTAL_SETTINGS, ...stored });
