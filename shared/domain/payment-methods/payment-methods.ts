import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { counterKey, parentListPartition, type Key } from '../../db/keys';
import { counterUpdate, type Page } from '../../db/pagination';
import { transactWrite, type TransactItem } from '../../db/transactions';
import { getConsistently } from '../credits/read';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import { customerNotFound } from '../customers/read';
import {
  PAYMENT_METHOD, PARENT_FIELD, customerMethodsCounter, paymentMethodKey, paymentMethodNotFound, toPaymentMethod, type PaymentMethod, type PaymentMethodItem,
} from './payment-method';

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
 * customer did save a method in that currency. A second delete is a 404. `also`: written in the same transaction (the
 * record of a provider's event that detached the method).
 */
export async function deletePaymentMethod(ctx: Ctx, customerId: string, id: string, also: TransactItem[] = []): Promise<PaymentMethod> {
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
          UpdateExpression: 'SET deleted_at = :now, updated_at = :now, #v = #v + :one REMOVE gsi3pk, gsi3sk, gsi4pk, gsi4sk',
          ConditionExpression: '#v = :read',
          ExpressionAttributeNames: { '#v': '_version' },
          ExpressionAttributeValues: { ':now': now, ':one': 1, ':read': method._version },
        },
      },
      counterUpdate(ctx, customerMethodsCounter(customer.id), -1),
      customerItem,
      ...also,
    ]);
    const { gsi3pk: _p, gsi3sk: _s, gsi4pk: _dp, gsi4sk: _ds, ...rest } = method;
    return toPaymentMethod({ ...rest, deleted_at: now, updated_at: now, _version: method._version + 1 }, null);
  });
}
