import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { versionCondition } from '../../db/items';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transactions';
import { productArchived } from '../catalog/errors';
import { productUsableCheck } from '../catalog/usable';
import { customerItemKey } from '../customers/customer';
import type { QuoteItem } from './quote';

/** Product checks beyond this many distinct products rely on the read alone (a transaction holds 100 items). */
const PRODUCT_CHECKS = 40;

/** The quote written over the version read (the condition of every move and edit). */
export const quotePut = (item: QuoteItem, readVersion: number): TransactItem => ({
  Put: { TableName: tableName(), Item: item, ...versionCondition(readVersion) },
});

/** The customer still exists, is not deleted, and is still billed in the quote's currency. */
export const customerCheck = (ctx: Ctx, customerId: string, currency: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: customerItemKey(ctx, customerId),
    ConditionExpression: 'attribute_exists(pk) AND attribute_type(deleted_at, :null) AND currency = :currency',
    ExpressionAttributeValues: { ':null': 'NULL', ':currency': currency },
  },
});

/** One entry of a quote's transaction, and what its failed condition means (none: a race, read again). */
export interface Entry {
  entry: TransactItem;
  failed?: () => Error;
  /** May be left out when another domain's entry already writes the same item (see `merged`). */
  optional?: boolean;
}

export const productEntries = (ctx: Ctx, productIds: readonly string[]): Entry[] =>
  productIds.slice(0, PRODUCT_CHECKS).map((id) => ({ entry: productUsableCheck(ctx, id), failed: () => productArchived(id), optional: true }));

/** The item a transaction entry writes or checks, as `pk|sk`. */
export function itemKeyOf(entry: TransactItem): string {
  const key = (entry.Put?.Item ?? entry.Update?.Key ?? entry.Delete?.Key ?? entry.ConditionCheck?.Key) as { pk: string; sk: string } | undefined;
  if (!key) throw new Error('A transaction entry without a key');
  return `${key.pk}|${key.sk}`;
}

/**
 * The quote's own entries with another domain's (a subscription being created or changed): DynamoDB allows one
 * operation per item per transaction, so an optional check of ours on an item the other domain already writes is
 * left out (that write carries its own conditions).
 */
export function merged(ours: readonly Entry[], theirs: readonly Entry[]): Entry[] {
  const taken = new Set(theirs.map((e) => itemKeyOf(e.entry)));
  const kept: Entry[] = [];
  for (const entry of ours) {
    const key = itemKeyOf(entry.entry);
    if (taken.has(key)) {
      if (entry.optional) continue;
      throw new Error(`Two operations on ${key} in one transaction`);
    }
    taken.add(key);
    kept.push(entry);
  }
  return [...kept, ...theirs];
}

/**
 * Writes the entries in one transaction. A failed condition of an entry that says what it means throws that error
 * (a product archived since it was read: 422 `product_archived`); any other is a ConditionFailed, for the caller's
 * `retryOnRace` to read again and decide again.
 */
export async function writeEntries(entries: readonly Entry[]): Promise<void> {
  try {
    await transactWrite(entries.map((e) => e.entry));
  } catch (error) {
    const failed = error instanceof ConditionFailed ? entries[error.index]?.failed : undefined;
    throw failed ? failed() : error;
  }
}
