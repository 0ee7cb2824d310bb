import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import type { Key } from '../../db/keys';
import { productNotFound } from '../catalog/errors';
import type { ProductItem } from '../catalog/product';
import { productKey } from '../catalog/product';
import { customerItemKey, type CustomerItem } from '../customers/customer';
import { customerNotFound } from '../customers/read';
import { customerDeleted } from '../customers/update';
import { CREDIT, creditBalanceKey, type CreditBalanceItem, type CreditLotItem } from './credit';
import { notACreditProduct } from './errors';

/** Items by key in one strongly consistent BatchGetItem (in the order asked; `undefined` where absent). */
export async function getConsistently(keys: Key[]): Promise<Array<Record<string, unknown> | undefined>> {
  const found = new Map<string, Record<string, unknown>>();
  let pending: Key[] = keys;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** Math.min(attempt, 6)));
    const result = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
    for (const item of result.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
    pending = (result.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[];
  }
  return keys.map((k) => found.get(`${k.pk}|${k.sk}`));
}

export interface Parties {
  customer: CustomerItem;
  product: ProductItem;
  balanceKey: Key;
  balance: CreditBalanceItem | undefined;
  /** The further items asked for, in order. */
  extra: Array<Record<string, unknown> | undefined>;
}

/**
 * The customer (404 if unknown, which includes another workspace's id), the product (404 if unknown or deleted),
 * the balance and any `extra` items: one round trip.
 */
export async function readParties(ctx: Ctx, customerId: string, productId: string, extra: Key[] = []): Promise<Parties> {
  const balanceKey = creditBalanceKey(ctx, customerId, productId);
  const [customer, product, balance, ...rest] = await getConsistently([customerItemKey(ctx, customerId), productKey(ctx, productId), balanceKey, ...extra]);
  if (!customer) throw customerNotFound(customerId);
  if (!product || product.deleted_at) throw productNotFound(productId);
  return {
    customer: customer as unknown as CustomerItem,
    product: product as unknown as ProductItem,
    balanceKey,
    balance: balance as CreditBalanceItem | undefined,
    extra: rest,
  };
}

/** What a balance change needs of its parties: a customer that is not deleted (409) and a credit product (422). */
export function assertCreditParties({ customer, product }: Pick<Parties, 'customer' | 'product'>): void {
  if (customer.deleted_at) throw customerDeleted(customer.id);
  if (product.type !== 'credit') throw notACreditProduct(product.id, product.type);
}

/** The balance and its lots, earliest-expiring first and never-expiring last: one strongly consistent Query. */
export async function readBalanceAndLots(pk: string): Promise<{ balance: CreditBalanceItem | undefined; lots: CreditLotItem[] }> {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :crd)',
        ExpressionAttributeValues: { ':pk': pk, ':crd': CREDIT },
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  const balance = items.find((i) => i.sk === CREDIT) as CreditBalanceItem | undefined;
  return { balance, lots: items.filter((i) => i._type === 'credit_lot') as unknown as CreditLotItem[] };
}
