import type { Ctx } from '../../context';
import { chunksOf, eachLimited } from '../../concurrency';
import { batchGet } from '../../db/batch-get';
import { collectionPartition, listPartitions, parentListPartition, type EntityType, type Key } from '../../db/keys';
import { queryItems } from '../../db/query';

type Stored = Record<string, unknown> & Key;

/**
 * Every listed item of a type (its list index partitions, then the items by key): an export reads the whole
 * workspace, once, in the background. `createdBefore` bounds the index range (an item created after the period
 * cannot belong to it).
 */
export async function listedItems<T>(ctx: Ctx, type: EntityType, createdBefore?: string): Promise<T[]> {
  const keys: Key[] = [];
  await eachLimited(listPartitions(ctx, type), 9, async (partition) => {
    const range = createdBefore ? ' AND gsi1sk < :to' : '';
    const { items } = await queryItems<Stored>({
      IndexName: 'gsi1', KeyConditionExpression: `gsi1pk = :p${range}`,
      ExpressionAttributeValues: { ':p': partition, ...(createdBefore && { ':to': createdBefore }) }, ProjectionExpression: 'pk, sk',
    });
    keys.push(...items.map(({ pk, sk }) => ({ pk, sk })));
  });
  return (await batchGet(keys)) as T[];
}

/** Every item of one partition whose sort key begins with `prefix` (a wallet's or a credit balance's ledger…). */
export async function partitionItems<T>(pk: string, prefix: string, between?: [string, string]): Promise<T[]> {
  const { items } = await queryItems<T>(between
    ? { KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':pk': pk, ':a': between[0], ':b': between[1] } }
    : { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': pk, ':p': prefix } });
  return items;
}

/** The ledgers of many partitions (wallets, credit balances), a few Queries at a time. */
export async function ledgersOf<T>(partitions: readonly string[], prefix: string): Promise<T[]> {
  const out: T[] = [];
  for (const chunk of chunksOf([...partitions], 50)) {
    await eachLimited(chunk, 10, async (pk) => {
      out.push(...(await partitionItems<T>(pk, prefix)));
    });
  }
  return out;
}

/** A customer's credit balances (the `gsi3` list of its balances), as keys. */
export async function creditBalanceKeys(ctx: Ctx, customerId: string): Promise<Key[]> {
  const { items } = await queryItems<Stored>({
    IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :p', ExpressionAttributeValues: { ':p': parentListPartition(ctx, 'CRD', 'customer_id', customerId) },
  });
  return items.map(({ pk, sk }) => ({ pk, sk }));
}

/** Every aggregator of the workspace (live or deleted: usage of a deleted one stays data). */
export const aggregatorItems = (ctx: Ctx): Promise<Stored[]> => partitionItems<Stored>(collectionPartition(ctx, 'AGGREGATORS'), 'agg_');
