import { rearmCollection } from '../collection/rearm';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { counterKey, parentListKeys, parentListPartition, type Key } from '../../db/keys';
import { counterUpdate, type Page } from '../../db/pagination';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { getConsistently } from '../credits/read';
import { currencyLockItem, type CustomerAlso } from '../customers/currency-lock';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import { customerNotFound } from '../customers/read';
import { paymentProvider, type PaymentProviderName, type SavedMethodType } from '../payments/provider';
import {
  PAYMENT_METHOD, PARENT_FIELD, customerMethodsCounter, methodSummary, paymentMethodKey, paymentMethodNotFound, toPaymentMethod,
  type PaymentMethod, type PaymentMethodItem,
} from './payment-method';

export interface PaymentMethodInput {
  token: string;
  type?: SavedMethodType;
  provider?: PaymentProviderName;
  set_as_default?: boolean;
}

const isLive = (customer: CustomerItem | undefined): customer is CustomerItem => !!customer && !customer.deleted_at;

const belongs = (method: PaymentMethodItem | undefined, customerId: string): method is PaymentMethodItem =>
  !!method && !method.deleted_at && method.customer_id === customerId;

/** The path's customer and payment method in one strongly consistent round trip: 404 unless both are live and related. */
async function readCustomerAndMethod(ctx: Ctx, customerId: string, id: string): Promise<{ customer: CustomerItem; method: PaymentMethodItem }> {
  const [customer, method] = (await getConsistently([customerItemKey(ctx, customerId), paymentMethodKey(ctx, id)])) as [
    CustomerItem | undefined,
    PaymentMethodItem | undefined,
  ];
  if (!isLive(customer)) throw customerNotFound(customerId);
  if (!belongs(method, customerId)) throw paymentMethodNotFound(id);
  return { customer, method };
}

/** The path customer, strongly consistent: 404 when unknown, of another workspace, or deleted. */
export async function liveCustomer(ctx: Ctx, customerId: string): Promise<CustomerItem> {
  const customer = await getItem<CustomerItem>(customerItemKey(ctx, customerId), true);
  if (!isLive(customer)) throw customerNotFound(customerId);
  return customer;
}

/**
 * For charges (invoices): the stored payment method `id` of the customer, strongly consistent. 404 when it is
 * unknown, deleted or saved for another customer. Charge it with
 * `paymentProvider(pm.provider).charge({ reference: pm.provider_reference, … })`.
 */
export async function findPaymentMethod(ctx: Ctx, customerId: string, id: string): Promise<PaymentMethodItem> {
  const method = await getItem<PaymentMethodItem>(paymentMethodKey(ctx, id), true);
  if (!belongs(method, customerId)) throw paymentMethodNotFound(id);
  return method;
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
  let customer: CustomerItem | undefined = await liveCustomer(ctx, customerId);
  assertCurrency(customer);
  const provider = paymentProvider(input.provider ?? 'sandbox');
  const attached = await provider.attach(input.token, { ctx, customerId });
  if (input.type && input.type !== attached.type) {
    throw new RuleViolation('payment_method_type_mismatch', `The token is a ${attached.type} method, not a ${input.type} one.`);
  }
  const created = await retryOnRace(async () => {
    const current = customer ?? (await liveCustomer(ctx, customerId));
    customer = undefined; // a retry reads the customer again
    const currency = assertCurrency(current);
    const now = ctx.clock.now();
    const iso = now.toISOString();
    const id = newId('pm', now.getTime());
    const makeDefault = input.set_as_default ?? !current.current_payment_method_id;
    const item: PaymentMethodItem = {
      ...paymentMethodKey(ctx, id),
      ...parentListKeys(ctx, PAYMENT_METHOD, PARENT_FIELD, current.id, iso, id),
      _type: 'payment_method',
      _version: 0,
      id,
      customer_id: current.id,
      type: attached.type,
      provider: provider.name,
      provider_reference: attached.reference,
      ...(attached.accountId && { provider_account_id: attached.accountId }),
      card: attached.card,
      sepa_debit: attached.sepa_debit,
      currency,
      created_as_default: makeDefault,
      created_at: iso,
      updated_at: iso,
      deleted_at: null,
    };
    const also: CustomerAlso = makeDefault
      ? {
          set: { current_payment_method_id: id, current_payment_method_type: item.type, current_payment_method_summary: methodSummary(item), updated_at: iso },
          // Made default because the customer had none: only if it still has none.
          ...(input.set_as_default === undefined && { expect: { current_payment_method_id: null } }),
        }
      : {};
    await transactWrite([
      { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      counterUpdate(ctx, customerMethodsCounter(current.id), 1),
      // Fails when the customer changed its currency, lost it, was deleted or got a default meanwhile: retried.
      currencyLockItem(ctx, current.id, 'payment_method', currency, also),
    ]);
    return toPaymentMethod(item, makeDefault ? id : current.current_payment_method_id);
  });
  // A new default re-arms the automatic collection of the customer's unpaid invoices (docs/collection.md).
  if (created.is_default) await rearmCollection(ctx, customerId);
  return created;
}

function assertCurrency(customer: CustomerItem): string {
  if (!customer.currency) {
    throw new RuleViolation('customer_currency_missing', `Customer '${customer.id}' has no currency: set one before saving a payment method.`);
  }
  return customer.currency;
}

export async function getPaymentMethod(ctx: Ctx, customerId: string, id: string): Promise<PaymentMethod> {
  const { customer, method } = await readCustomerAndMethod(ctx, customerId, id);
  return toPaymentMethod(method, customer.current_payment_method_id);
}

/**
 * The customer's live payment methods, newest first: a keys-only window of the customer's gsi3 partition
 * (deleted methods leave it) beside the customer and its counter, then the page in one BatchGetItem.
 */
export async function listPaymentMethods(ctx: Ctx, customerId: string, query: { take: number; skip: number }): Promise<Page<PaymentMethod>> {
  const { take, skip } = query;
  const [keys, [customer, counter]] = await Promise.all([
    take === 0 ? Promise.resolve([]) : newestKeys(ctx, customerId, skip + take).then((all) => all.slice(skip)),
    getConsistently([customerItemKey(ctx, customerId), counterKey(ctx, customerMethodsCounter(customerId))]),
  ]);
  if (!isLive(customer as CustomerItem | undefined)) throw customerNotFound(customerId);
  const defaultId = (customer as unknown as CustomerItem).current_payment_method_id;
  const items = keys.length === 0 ? [] : ((await getConsistently(keys)) as Array<PaymentMethodItem | undefined>);
  // The index is eventually consistent: a method deleted a moment ago may still have an entry.
  const data = items.filter((m): m is PaymentMethodItem => belongs(m, customerId)).map((m) => toPaymentMethod(m, defaultId));
  return { meta: { total: Number(counter?.total ?? 0), taken: data.length, skipped: skip, approximateCount: false }, data };
}

/** The first `count` keys of the customer's list partition, newest first (the sort key begins with created_at). */
async function newestKeys(ctx: Ctx, customerId: string, count: number): Promise<Key[]> {
  const keys: Key[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :p',
        ExpressionAttributeValues: { ':p': parentListPartition(ctx, PAYMENT_METHOD, PARENT_FIELD, customerId) },
        ProjectionExpression: 'pk, sk',
        ScanIndexForward: false,
        Limit: Math.min(count - keys.length, 1000),
        ExclusiveStartKey: cursor,
      }),
    );
    keys.push(...((page.Items ?? []) as Key[]).map(({ pk, sk }) => ({ pk, sk })));
    cursor = page.LastEvaluatedKey;
  } while (cursor && keys.length < count);
  return keys;
}

/**
 * Soft delete: `deleted_at` set, out of the customer's list and count, in one transaction with the customer:
 * deleting the default clears `current_payment_method_id` (and `current_payment_method_type` when it is `card`);
 * deleting another method checks that it has not become the default meanwhile. The currency lock stays: the
 * customer did save a method in that currency. A second delete is a 404.
 */
export async function deletePaymentMethod(ctx: Ctx, customerId: string, id: string): Promise<PaymentMethod> {
  return retryOnRace(async () => {
    const { customer, method } = await readCustomerAndMethod(ctx, customerId, id);
    const now = ctx.clock.now().toISOString();
    const customerKey = customerItemKey(ctx, customer.id);
    const wasDefault = customer.current_payment_method_id === method.id;
    const customerItem: TransactItem = wasDefault
      ? {
          Update: {
            TableName: tableName(),
            Key: customerKey,
            UpdateExpression: `SET current_payment_method_id = :none, current_payment_method_summary = :none, ${customer.current_payment_method_type === method.type ? 'current_payment_method_type = :none, ' : ''}updated_at = :now, #v = #v + :one`,
            ConditionExpression: '#v = :read',
            ExpressionAttributeNames: { '#v': '_version' },
            ExpressionAttributeValues: { ':none': null, ':now': now, ':one': 1, ':read': customer._version },
          },
        }
      : {
          ConditionCheck: {
            TableName: tableName(),
            Key: customerKey,
            ConditionExpression: 'attribute_type(deleted_at, :null) AND (attribute_not_exists(current_payment_method_id) OR current_payment_method_id <> :id)',
            ExpressionAttributeValues: { ':null': 'NULL', ':id': method.id },
          },
        };
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: paymentMethodKey(ctx, method.id),
          UpdateExpression: 'SET deleted_at = :now, updated_at = :now, #v = #v + :one REMOVE gsi3pk, gsi3sk',
          ConditionExpression: '#v = :read',
          ExpressionAttributeNames: { '#v': '_version' },
          ExpressionAttributeValues: { ':now': now, ':one': 1, ':read': method._version },
        },
      },
      counterUpdate(ctx, customerMethodsCounter(customer.id), -1),
      customerItem,
    ]);
    const { gsi3pk: _p, gsi3sk: _s, ...rest } = method;
    return toPaymentMethod({ ...rest, deleted_at: now, updated_at: now, _version: method._version + 1 }, null);
  });
}
