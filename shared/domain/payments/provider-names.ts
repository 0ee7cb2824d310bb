/**
 * The names the schemas need (the request and resource enums), apart from the provider registry (provider.ts),
 * so that a route which only validates or shows a payment method does not bundle the Stripe SDK.
 */

/** The providers a payment method may name (the request schema's enum). */
export const PAYMENT_PROVIDER_NAMES = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

/** The kinds of saved method (the specification's payment method types): cards, and SEPA Direct Debit. */
export const SAVED_METHOD_TYPES = ['card', 'direct_debit'] as const;
export type SavedMethodType = (typeof SAVED_METHOD_TYPES)[number];
