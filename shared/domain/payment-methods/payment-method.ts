import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';
import { parentCounter } from '../../db/pagination';
import { NotFound } from '../../errors';
import type { CardDetails, PaymentProviderName, SavedMethodType, SepaDebitDetails } from '../payments/provider';
import type { ExpiryNotice } from './expiry';

/** The entity type of payment methods: `WS#<ws>#PM#<pm_id>` / `PM` (customers/references.ts checks this key). */
export const PAYMENT_METHOD = 'PM';

/**
 * A payment method saved for a customer. Whether it is the customer's default is not stored here: it is the
 * customer's `current_payment_method_id`, so the two can never disagree (`toPaymentMethod` takes it).
 */
export interface PaymentMethodItem extends StoredItem {
  _type: 'payment_method';
  id: string;
  customer_id: string;
  type: SavedMethodType;
  provider: PaymentProviderName;
  /** The provider's handle on the method (what `charge` takes). Internal: never returned. */
  provider_reference: string;
  /** The provider's account holding the method (Stripe's `acct_…`), for providers with accounts. Internal. */
  provider_account_id?: string;
  /** A card's details; null for a direct debit. */
  card: CardDetails | null;
  /** A SEPA Direct Debit's bank and last 4 of the IBAN; null (or absent, before there were any) for a card. */
  sepa_debit?: SepaDebitDetails | null;
  /** The customer's currency when the method was saved: the currency it locked. Internal. */
  currency: string;
  /**
   * Whether saving it made it the customer's default: a fact of its creation (the `payment_method.created` event
   * tells it), not the current state, which is the customer's `current_payment_method_id`.
   */
  created_as_default: boolean;
  /** Its entry in the customer's list (gsi3), removed when deleted. */
  gsi3pk?: string;
  gsi3sk?: string;
  /** A card's entry in the scheduling index until its expiry notice (expiry.ts), removed when deleted. */
  gsi4pk?: string;
  gsi4sk?: string;
  /** The last `payment_method.expiring` told (expiry.ts). */
  expiry_notice?: ExpiryNotice;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export const paymentMethodKey = (ctx: Ctx, id: string) => entityKey(ctx, PAYMENT_METHOD, id);

/** The customer's list of payment methods: its gsi3 partition (`customer_id=<id>`) and this counter. */
export const PARENT_FIELD = 'customer_id';
export const customerMethodsCounter = (customerId: string) => parentCounter(PAYMENT_METHOD, PARENT_FIELD, customerId);

export const paymentMethodNotFound = (id: string) => new NotFound('payment method', id);

/** The public representation; `defaultId` is the customer's `current_payment_method_id`. */
export function toPaymentMethod(item: PaymentMethodItem, defaultId: string | null) {
  return {
    id: item.id,
    customer_id: item.customer_id,
    type: item.type,
    provider: item.provider,
    card: item.card && { brand: item.card.brand, last4: item.card.last4, exp_month: item.card.exp_month, exp_year: item.card.exp_year },
    sepa_debit: item.sepa_debit ? { bank_code: item.sepa_debit.bank_code, country: item.sepa_debit.country, last4: item.sepa_debit.last4 } : null,
    is_default: item.deleted_at === null && item.id === defaultId,
    // Hyperline's PaymentMethod members (the summary's): a client ported from it reads them on the method itself.
    ...hyperlineMembers(item),
    created_at: item.created_at,
    updated_at: item.updated_at,
    deleted_at: item.deleted_at,
  };
}

export type PaymentMethod = ReturnType<typeof toPaymentMethod>;

/** The payment method summary of billing-api.md, on a customer (`current_payment_method`) and on transactions. */
export interface PaymentMethodSummary {
  id: string | null;
  /** `active` for a saved method, `deleted` once deleted; null for a way of paying that is not a saved method. */
  status: string | null;
  type: string;
  last_4_digits: number | null;
  /** Year-month, e.g. `2030-12`. */
  expiration_date: string | null;
  brand: string | null;
}

/** A card: its last 4, expiry and brand; a direct debit: the last 4 of its IBAN (it neither expires nor has a brand). */
export function methodSummary(item: PaymentMethodItem): PaymentMethodSummary {
  const { card } = item;
  const saved = { id: item.id, status: item.deleted_at ? 'deleted' : 'active', type: item.type };
  if (!card) return { ...saved, last_4_digits: Number(item.sepa_debit!.last4), expiration_date: null, brand: null };
  return { ...saved, last_4_digits: Number(card.last4), expiration_date: `${card.exp_year}-${String(card.exp_month).padStart(2, '0')}`, brand: card.brand };
}

function hyperlineMembers(item: PaymentMethodItem) {
  const { status, last_4_digits, expiration_date, brand } = methodSummary(item);
  return { status, last_4_digits, expiration_date, brand };
}

/** A way of paying that is no saved method (a transfer, the wallet…): its type, and its id when it has one. */
export const plainSummary = (type: string, id: string | null = null): PaymentMethodSummary =>
  ({ id, status: null, type, last_4_digits: null, expiration_date: null, brand: null });

/**
 * From a provider's handle on a method to ours (`WS#<ws>#PMREF#<provider>:<reference>`): written with the method,
 * in its transaction, for providers whose methods have their own lives (Stripe's webhooks name its `pm_…`), so an
 * event finds our method without a scan. A method saved again points it at the newest.
 */
export interface MethodReferenceItem extends StoredItem {
  _type: 'payment_method_reference';
  payment_method_id: string;
  customer_id: string;
}

export const methodReferenceKey = (ctx: Ctx, provider: PaymentProviderName, reference: string) => entityKey(ctx, 'PMREF', `${provider}:${reference}`);
