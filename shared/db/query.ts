import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';

/**
 * A Query followed across its pages (DynamoDB returns at most 1 MB a call) until `enough` says so or the key range
 * ends. `more` tells whether items were left unread.
 */
export async function queryItems<T>(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
  enough: (items: T[]) => boolean = () => false,
): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: cursor }));
    items.push(...((page.Items ?? []) as T[]));
    cursor = page.LastEvaluatedKey;
  } while (cursor && !enough(items));
  return { items, more: cursor !== undefined };
}
