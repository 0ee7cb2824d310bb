import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { retryOnRace } from '../../db/items';
import { parentListKeys } from '../../db/keys';
import { counterUpdate } from '../../db/pagination';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { rearmCollection } from '../collection/rearm';
import { currencyLockItem, type CustomerAlso } from '../customers/currency-lock';
import type { CustomerItem } from '../customers/customer';
import { paymentProvider, type AttachedMethod, type PaymentProviderName, type SavedMethodType } from '../payments/provider';
import {
  PAYMENT_METHOD, PARENT_FIELD, customerMethodsCounter, methodReferenceKey, methodSummary, paymentMethodKey, toPaymentMethod, type MethodReferenceItem, type PaymentMethod,
  type PaymentMethodItem,
} from './payment-method';
import { cardExpiryDueKeys } from './expiry';
import { liveCustomer } from './payment-methods';

/*
 * Saving a method, apart from reading and deleting them (payment-methods.ts): it alone asks the provider, so it alone
 * bundles the providers' SDKs.
 */

export interface PaymentMethodInput {
  token: string;
  type?: SavedMethodType;
  provider?: PaymentProviderName;
  set_as_default?: boolean;
}

/**
 * Saves a card for a customer (live, with a currency: else 404 / 422 `customer_currency_missing`) through its
 * provider, which vets the token first (422 `payment_method_invalid`). One transaction writes the method, its
 * entry in the customer's list and that list's counter, and locks the customer's currency; when the method becomes
 * the default (asked with `set_as_default`, or the customer has none), the same customer Update sets
 * `current_payment_method_id`/`_type`. A concurrent change of the customer (currency, default, deletion) makes the
 * transaction fail and the write start over from the customer as it now is; the provider is asked only once.
 */
export async function createPaymentMethod(ctx: Ctx, customerId: string, input: PaymentMethodInput): Promise<PaymentMethod> {
  const customer = await liveCustomer(ctx, customerId);
  assertCurrency(customer);
  const provider = paymentProvider(input.provider ?? 'sandbox');
  const attached = await provider.attach(input.token, { ctx, customerId });
  if (input.type && input.type !== attached.type) {
    throw new RuleViolation('payment_method_type_mismatch', `The token is a ${attached.type} method, not a ${input.type} one.`);
  }
  return (await saveAttachedMethod(ctx, customerId, provider.name, attached, { setAsDefault: input.set_as_default, known: customer }))!;
}

export interface SaveOptions {
  setAsDefault?: boolean;
  /** The customer as just read (a retry reads it again). */
  known?: CustomerItem;
  /**
   * Written in the same transaction (a provider's event that told of the method), asked before each try: none
   * (undefined) means the method is not to be saved any more (the event was applied meanwhile), and null is answered.
   */
  also?: () => Promise<TransactItem[] | undefined>;
  /**
   * Saved only if this provider method is not saved yet (its reference item absent, checked in the transaction): two
   * savers of one method (the portal's form and Stripe's `setup_intent.succeeded`) save it once; the other's `also`
   * then finds the reference and answers null.
   */
  once?: boolean;
}

/** Saves a method the provider has attached (createPaymentMethod, or a provider's event): see createPaymentMethod. */
export async function saveAttachedMethod(
  ctx: Ctx, customerId: string, providerName: PaymentProviderName, attached: AttachedMethod, options: SaveOptions = {},
): Promise<PaymentMethod | null> {
  let customer = options.known;
  const created = await retryOnRace(async () => {
    const also = options.also ? await options.also() : [];
    if (!also) return null;
    const current = customer ?? (await liveCustomer(ctx, customerId));
    customer = undefined; // a retry reads the customer again
    const currency = assertCurrency(current);
    const now = ctx.clock.now();
    const iso = now.toISOString();
    const id = newId('pm', now.getTime());
    const makeDefault = options.setAsDefault ?? !current.current_payment_method_id;
    const item: PaymentMethodItem = {
      ...paymentMethodKey(ctx, id),
      ...parentListKeys(ctx, PAYMENT_METHOD, PARENT_FIELD, current.id, iso, id),
      _type: 'payment_method',
      _version: 0,
      id,
      customer_id: current.id,
      type: attached.type,
      provider: providerName,
      provider_reference: attached.reference,
      ...(attached.accountId && { provider_account_id: attached.accountId }),
      card: attached.card,
      sepa_debit: attached.sepa_debit,
      currency,
      created_as_default: makeDefault,
      ...cardExpiryDueKeys(ctx, { id, card: attached.card }),
      created_at: iso,
      updated_at: iso,
      deleted_at: null,
    };
    const lock: CustomerAlso = makeDefault
      ? {
          set: { current_payment_method_id: id, current_payment_method_type: item.type, current_payment_method_summary: methodSummary(item), updated_at: iso },
          // Made default because the customer had none: only if it still has none.
          ...(options.setAsDefault === undefined && { expect: { current_payment_method_id: null } }),
        }
      : {};
    await transactWrite([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, customerMethodsCounter(current.id), 1),
      // Fails when the customer changed its currency, lost it, was deleted or got a default meanwhile: retried.
      currencyLockItem(ctx, current.id, 'payment_method', currency, lock),
      ...(attached.accountId ? [referencePut(ctx, item, options.once)] : []),
      ...also,
    ]);
    return toPaymentMethod(item, makeDefault ? id : current.current_payment_method_id);
  });
  // A new default re-arms the automatic collection of the customer's unpaid invoices (docs/collection.md).
  if (created?.is_default) await rearmCollection(ctx, customerId);
  return created;
}

/** The method's reference item (payment-method.ts), for a provider with accounts: its webhooks name the method so. */
function referencePut(ctx: Ctx, item: PaymentMethodItem, once = false) {
  const reference: MethodReferenceItem = {
    ...methodReferenceKey(ctx, item.provider, item.provider_reference), _type: 'payment_method_reference', _version: 0, payment_method_id: item.id, customer_id: item.customer_id,
  };
  return { Put: { TableName: tableName(), Item: reference, ...(once && { ConditionExpression: 'attribute_not_exists(pk)' }) } };
}

function assertCurrency(customer: CustomerItem): string {
  if (!customer.currency) {
    throw new RuleViolation('customer_currency_missing', `Customer '${customer.id}' has no currency: set one before saving a payment method.`);
  }
  return customer.currency;
}
