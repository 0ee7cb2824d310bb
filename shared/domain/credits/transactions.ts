import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import { queryItems } from '../../db/query';
import type { ListFields, Page } from '../../db/pagination';
import { buildFilter } from '../../schemas/list-query';
import { creditTransactionFilters } from '../../schemas/list-filters';
import { creditBalanceKey, toCreditTransactionListItem, transactionKey, TRANSACTION_PREFIX, type CreditTransactionItem, type CreditTransactionListItem } from './credit';
import { readParties } from './read';

/** A filtered list counts its matches up to this many entries past the page, then says approximateCount. */
const COUNT_READ_LIMIT = 10_000;

/**
 * The ledger of one balance, oldest first (chain order: each `balance_after` follows the previous one, and
 * offsets stay stable while entries are added). Without filters, entry n has sort key `TX#n`, so a page is ONE
 * Query of exactly `take` items whatever `skip` is, and `total` is the balance's `transaction_count`. With filters
 * (`type`, `created_at`, the decisions.md operators), the ledger is read in order and filtered, counting matches.
 * Reads are strongly consistent: a transaction is listed right after the request that wrote it.
 */
export async function listCreditTransactions(
  ctx: Ctx,
  customerId: string,
  productId: string,
  query: { take: number; skip: number } & Record<string, unknown>,
): Promise<Page<CreditTransactionListItem>> {
  const { take, skip } = query;
  const { pk } = creditBalanceKey(ctx, customerId, productId);
  const filter = buildFilter(creditTransactionFilters, query);
  if (!filter) {
    const [parties, items] = await Promise.all([readParties(ctx, customerId, productId), take === 0 ? [] : window(pk, skip + 1, skip + take)]);
    const total = parties.balance?.transaction_count ?? 0;
    return { meta: { total, taken: items.length, skipped: skip, approximateCount: false }, data: items.map(toCreditTransactionListItem) };
  }
  const [, page] = await Promise.all([readParties(ctx, customerId, productId), filtered(pk, skip, take, filter)]);
  return page;
}

/** The ledger read in order and filtered in memory, counting matches to the end (or up to COUNT_READ_LIMIT past the page). */
async function filtered(pk: string, skip: number, take: number, filter: (fields: ListFields) => boolean): Promise<Page<CreditTransactionListItem>> {
  const data: CreditTransactionListItem[] = [];
  let matched = 0;
  let readPastPage = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tx)',
        ExpressionAttributeValues: { ':pk': pk, ':tx': TRANSACTION_PREFIX },
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of (page.Items ?? []) as CreditTransactionItem[]) {
      if (matched >= skip + take) readPastPage += 1;
      if (!filter({ type: item.type, created_at: item.created_at })) continue;
      if (matched >= skip && matched < skip + take) data.push(toCreditTransactionListItem(item));
      matched += 1;
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor && readPastPage < COUNT_READ_LIMIT);
  return { meta: { total: matched, taken: data.length, skipped: skip, approximateCount: cursor !== undefined }, data };
}

/** Entries `first`..`last` (seq numbers) in one Query on the sort key range. */
async function window(pk: string, first: number, last: number): Promise<CreditTransactionItem[]> {
  const { items } = await queryItems<CreditTransactionItem>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': pk, ':first': transactionKey(pk, first).sk, ':last': transactionKey(pk, last).sk },
    ConsistentRead: true,
  });
  return items;
}
