import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../shared/db/client';

const MAX_ATTEMPTS = 8;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Puts up to 25 items in one BatchWriteItem, re-sending UnprocessedItems with backoff; returns how many re-sends it
 * took. Seeds only: real writes go through the domain's transactions.
 */
export async function putBatch(client: DynamoDBDocumentClient, items: Record<string, unknown>[], label: string): Promise<number> {
  let pending: Record<string, unknown>[] = items.map((Item) => ({ PutRequest: { Item } }));
  let retries = 0;
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > MAX_ATTEMPTS) throw new Error(`seeding ${label}: ${pending.length} items still unprocessed after ${MAX_ATTEMPTS} attempts`);
    if (attempt > 1) {
      retries += 1;
      await sleep(Math.min(50 * 2 ** (attempt - 2), 2_000));
    }
    const reply = await client.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
    pending = (reply.UnprocessedItems?.[tableName()] ?? []) as Record<string, unknown>[];
  }
  return retries;
}
