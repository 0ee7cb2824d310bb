import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { counterKey, parentListKeys, parentListPartition } from '../../db/keys';
import { counterUpdate, parentCounter } from '../../db/pagination';
import type { TransactItem } from '../../db/transactions';
import { RuleViolation, type DomainError } from '../../errors';
import { getItem } from '../../db/items';
import { PRODUCT, type ProductType } from '../catalog/product';
import { aggregatorKey, type AggregateOperation, type AggregatorItem } from './aggregator';
import { aggregatorReferenceMissing } from './aggregator-errors';

/**
 * The link between products and the aggregator that meters them. A product that names an aggregator sits in the
 * aggregator's partition of the parent index (gsi3, `…#LIST#ITM#aggregator_id=<agg>`), and the aggregator's counter
 * of products (`ITM#aggregator_id=<agg>`) moves in the same transaction as the product. The aggregator's deletion
 * checks that counter in its own transaction: a product write and a deletion can never both succeed.
 */
const FIELD = 'aggregator_id';

/** Only usage is metered: a `dynamic` product prices the aggregated quantity, a `credit` product consumes credits by it. */
export const METERED_PRODUCT_TYPES: readonly ProductType[] = ['dynamic', 'credit'];

export function assertMeteredType(type: ProductType, aggregatorId: string | null | undefined): void {
  if (aggregatorId == null || METERED_PRODUCT_TYPES.includes(type)) return;
  throw new RuleViolation(
    'aggregator_not_allowed',
    `A '${type}' product cannot name an aggregator: only ${METERED_PRODUCT_TYPES.map((t) => `'${t}'`).join(' and ')} products are metered by usage.`,
  );
}

/**
 * The operations a credit product may be metered by: each event then consumes what it adds (count: 1, sum: the
 * property). max, unique_count and latest describe a period, not an event: no per-event amount to consume
 * (docs/usage-credits.md).
 */
export const CREDIT_OPERATIONS: readonly AggregateOperation[] = ['count', 'sum'];

/**
 * A credit product naming an aggregator of another operation → 422 `aggregator_operation_not_allowed`. One read of
 * the aggregator (its operation never changes); a missing one is left to the transaction's check (422
 * `aggregator_not_found`).
 */
export async function assertCreditAggregation(ctx: Ctx, type: ProductType, aggregatorId: string | null | undefined): Promise<void> {
  if (type !== 'credit' || aggregatorId == null) return;
  const aggregator = await getItem<AggregatorItem>(aggregatorKey(ctx, aggregatorId), true);
  if (!aggregator || aggregator.deleted_at || CREDIT_OPERATIONS.includes(aggregator.operation)) return;
  throw new RuleViolation(
    'aggregator_operation_not_allowed',
    `A credit product consumes credits per event: its aggregator must count or sum, and '${aggregatorId}' is a '${aggregator.operation}' aggregator.`,
  );
}

export const productUsersCounter = (aggregatorId: string) => parentCounter(PRODUCT, FIELD, aggregatorId);

/** The product's entry under its aggregator (none without one). */
export const aggregatorIndexKeys = (ctx: Ctx, aggregatorId: string | null, createdAt: string, productId: string) =>
  aggregatorId ? parentListKeys(ctx, PRODUCT, FIELD, aggregatorId, createdAt, productId) : {};

export interface LinkWrites {
  items: TransactItem[];
  /** The error of a failed condition, by the index of its entry in `items`. */
  errorAt: (index: number) => DomainError | undefined;
}

/**
 * The transaction entries that move a product from aggregator `from` to `to` (either null): the new one must be live
 * (checked in the transaction), and each aggregator's product counter follows.
 */
export function aggregatorLinkWrites(ctx: Ctx, from: string | null, to: string | null): LinkWrites {
  if (from === to) return { items: [], errorAt: () => undefined };
  const items: TransactItem[] = [];
  if (from) items.push(counterUpdate(ctx, productUsersCounter(from), -1));
  const checkAt = items.length;
  if (to) {
    items.push(
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: aggregatorKey(ctx, to),
          ConditionExpression: 'attribute_exists(pk) AND attribute_type(deleted_at, :null)',
          ExpressionAttributeValues: { ':null': 'NULL' },
        },
      },
      counterUpdate(ctx, productUsersCounter(to), 1),
    );
  }
  return { items, errorAt: (index) => (to && index === checkAt ? aggregatorReferenceMissing(to) : undefined) };
}

/** The condition that no product names the aggregator, for the transaction that deletes it. */
export const noProductUsesCheck = (ctx: Ctx, aggregatorId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: counterKey(ctx, productUsersCounter(aggregatorId)),
    ConditionExpression: 'attribute_not_exists(#total) OR #total = :zero',
    ExpressionAttributeNames: { '#total': 'total' },
    ExpressionAttributeValues: { ':zero': 0 },
  },
});

/** Up to `limit` ids of the products that name the aggregator: one keys-only Query of its gsi3 partition. */
export async function productsNaming(ctx: Ctx, aggregatorId: string, limit = 10): Promise<string[]> {
  const page = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :p',
      ExpressionAttributeValues: { ':p': parentListPartition(ctx, PRODUCT, FIELD, aggregatorId) },
      Limit: limit,
    }),
  );
  return (page.Items ?? []).map((entry) => String(entry.gsi3sk).slice(String(entry.gsi3sk).lastIndexOf('#') + 1));
}
