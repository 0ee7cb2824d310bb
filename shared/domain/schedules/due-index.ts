import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../db/client';

/** A scheduling-index entry as the index returns it (keys only): the item's keys and its gsi4 keys. */
export type DueEntry = Record<string, unknown>;

/** `<time>#~` sorts after every entry due at or before `time`: kinds and ids use no character above `~`. */
export const upToKey = (now: Date): string => `${now.toISOString()}#~`;

/**
 * The entries of one scheduling-index partition whose sort key lies in [from, to] (up to `to` for an empty `from`), in order, page by page (of at most
 * `limit()` entries each), from `start` (exclusive: an entry already read) on. A Query of the key range: it reads only these entries (DynamoDB charges
 * 0.5 read unit per 4 KB read, an entry is ≈ 150 bytes, and 0.5 for a Query that finds nothing).
 */
export async function* duePages(partition: string, from: string, to: string, start?: DueEntry, limit?: () => number): AsyncGenerator<DueEntry[]> {
  let cursor = start;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi4',
        KeyConditionExpression: from ? 'gsi4pk = :pk AND gsi4sk BETWEEN :from AND :to' : 'gsi4pk = :pk AND gsi4sk <= :to',
        ExpressionAttributeValues: { ':pk': partition, ':to': to, ...(from && { ':from': from }) },
        ExclusiveStartKey: cursor,
        Limit: limit?.(),
      }),
    );
    cursor = page.LastEvaluatedKey;
    yield page.Items ?? [];
  } while (cursor);
}
