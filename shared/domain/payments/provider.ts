import type { Ctx } from '../../context';
import { RuleViolation } from '../../errors';
import { PAYMENT_PROVIDER_NAMES, type PaymentProviderName } from './provider-names';
import { sandboxProvider } from './sandbox';
import { stripeProvider } from './stripe/provider';

export { paymentMethodInvalid } from './errors';
export { PAYMENT_PROVIDER_NAMES, SAVED_METHOD_TYPES, type PaymentProviderName, type SavedMethodType } from './provider-names';

/** What a provider knows of a card: never its number, only what can be shown. */
export interface CardDetails {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

/** What a provider knows of a SEPA Direct Debit mandate's account: its bank and the last 4 of the IBAN. */
export interface SepaDebitDetails {
  bank_code: string | null;
  country: string | null;
  last4: string;
}

/** A token turned into a reusable payment method at the provider. `reference` stays internal (never returned). */
export type AttachedMethod = {
  reference: string;
  /** The provider's account the method lives in (Stripe's `acct_…`), when the provider has accounts. */
  accountId?: string;
} & ({ type: 'card'; card: CardDetails; sepa_debit: null } | { type: 'direct_debit'; card: null; sepa_debit: SepaDebitDetails });

/** Whose method is being saved: the workspace (from the credential) and our customer. */
export interface MethodOwner {
  ctx: Ctx;
  customerId: string;
}

export interface ChargeInput {
  /** The `reference` that `attach` gave. */
  reference: string;
  /** In the currency's smallest unit; a positive integer. */
  amount: number;
  currency: string;
  /** One key per charge attempt: the same key always gives the same outcome and `providerId`. */
  idempotencyKey: string;
  /** Whose method it is (providers with accounts and customers need it; the sandbox does not). */
  owner?: MethodOwner;
  /** The provider's account the method was saved in (`provider_account_id`). */
  accountId?: string;
  /** Merchant-initiated (automatic collection, the API): no customer at hand to authenticate. Default true. */
  offSession?: boolean;
  /** Shown beside the charge at the provider: the workspace, invoice and attempt. */
  metadata?: Record<string, string>;
  /**
   * When the attempt was first begun, if it was begun before (a crash, or no answer) and may have charged: a provider
   * whose idempotency keys expire (Stripe's, after 24 hours) looks for that charge, made since then, before making one.
   */
  resumedFrom?: string;
}

export type ChargeResult =
  | { status: 'succeeded'; providerId: string; providerFee?: number | null }
  | { status: 'failed'; providerId: string; errorType: string; message: string }
  /**
   * Neither paid nor failed yet: `processing` (a SEPA debit, days) or `authentication_required` (3-D Secure: the
   * customer must confirm it on session). The provider tells the outcome later (its webhooks, or a retrieve).
   */
  | { status: 'pending'; providerId: string; reason: 'processing' | 'authentication_required'; message: string };

/**
 * A payment provider (decisions.md, "Invoices"): the built-in `sandbox`, and Stripe (docs/payments.md). A provider
 * holds no state of ours: the payment method item keeps the provider's name and reference.
 */
export interface PaymentProvider {
  name: PaymentProviderName;
  /** Saves a method from a provider token. An unusable token throws a 422 RuleViolation `payment_method_invalid`. */
  attach(token: string, owner: MethodOwner): Promise<AttachedMethod>;
  /** Charges a saved method. A decline is a `failed` result, not an exception. */
  charge(input: ChargeInput): Promise<ChargeResult>;
}

const PROVIDERS: Record<PaymentProviderName, PaymentProvider> = { sandbox: sandboxProvider, stripe: stripeProvider };

/** The provider of that name (as stored on a payment method); an unknown name is a 422 `payment_provider_unknown`. */
export function paymentProvider(name: string): PaymentProvider {
  const provider = Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name as PaymentProviderName] : undefined;
  if (!provider) throw new RuleViolation('payment_provider_unknown', `No payment provider named '${name}' (known: ${PAYMENT_PROVIDER_NAMES.join(', ')}).`);
  return provider;
}
