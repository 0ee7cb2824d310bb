/**
 * The partition-heat recorder: a middleware on the shared table client (as dynamo-meter.ts does) that records, for
 * every request sent while a phase is set, the table and index partitions it touches and their capacity units
 * (partition-heat.ts), and the items each transaction holds. It sees the marshalled request (the `build` step, after
 * the document client's marshalling); what DynamoDB charges for depends on the items as the table holds them, so it
 * reads them on a client of its own, unrecorded: each written item before the write (strongly consistent) and an
 * updated one after it, and, for a read whose filter or projection hides what was read, the same read without them.
 * Those reads slow the workload down; nothing here is timed. Requests sent from inside `inStream` (the stream runtime
 * started there: its timers and promises keep the scope) are recorded under `<phase>:stream`. Imports the shared
 * table client: import this module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  BatchGetItemCommand, DynamoDBClient, type BatchGetItemCommandOutput, GetItemCommand, QueryCommand, ScanCommand,
  type AttributeValue, type KeysAndAttributes, type QueryCommandInput, type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { chunksOf } from '../../shared/concurrency';
import { db } from '../../shared/db/client';
import { tableDefinition } from '../../shared/db/table-definition';
import { itemId, partitionOfIndex, readCost, TABLE, tablePartition, writeCost, type Item, type Operation, type Touch } from './partition-heat';

export interface RecordedOperation extends Operation {
  label: string;
  /** The `_type` of each item a successful write left in the table (to count messages, events…). */
  written: string[];
}

const NAME = 'benchPartitionHeat';
const stream = new AsyncLocalStorage<true>();
let phase: string | undefined;
let recorded: RecordedOperation[] = [];
let shadow: DynamoDBClient | undefined;

/** Records what is sent from now on under `name` (undefined: records nothing, e.g. while seeding). */
export const setPhase = (name: string | undefined): void => {
  phase = name;
};

/** Runs `work` (and everything it schedules) as the stream's: its requests are recorded under `<phase>:stream`. */
export const inStream = <T>(work: () => T): T => stream.run(true, work);

/** The operations recorded under `label`, and forgets them. */
export function takeRecorded(label: string): RecordedOperation[] {
  const taken = recorded.filter((o) => o.label === label);
  recorded = recorded.filter((o) => o.label !== label);
  return taken;
}

export function installHeatRecorder(): void {
  if (db.middlewareStack.identify().some((m) => m.startsWith(NAME))) return;
  shadow ??= new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (!phase) return next(args);
      const label = stream.getStore() ? `${phase}:stream` : phase;
      const command = String(context.commandName ?? '').replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      const before = await imagesBefore(command, input);
      let output: Record<string, unknown> | undefined;
      let failure: unknown;
      try {
        const result = await next(args);
        output = result.output as Record<string, unknown>;
        return result;
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        try {
          const operation = await costOf(command, input, output, before, failure);
          if (operation) recorded.push({ ...operation, label });
        } catch (error) {
          console.error(`partition-heat recorder: ${command} not recorded`, error);
        }
      }
    },
    { step: 'build', name: NAME },
  );
}

export function uninstallHeatRecorder(): void {
  db.middlewareStack.remove(NAME);
}

// ---------------------------------------------------------------------------------------------------------------
// What the table holds, read on the recorder's own client

type Key = Record<string, AttributeValue>;
const keyOf = (item: Item): Key => ({ [tableDefinition.partitionKey]: item[tableDefinition.partitionKey]!, [tableDefinition.sortKey]: item[tableDefinition.sortKey]! });

/** The items at `keys`, strongly consistent, by itemId. */
async function readItems(table: string, keys: readonly Key[]): Promise<Map<string, Item>> {
  const unique = [...new Map(keys.map((k) => [itemId(k), k])).values()];
  const found = new Map<string, Item>();
  for (const chunk of chunksOf(unique, 100)) {
    let request: Record<string, KeysAndAttributes> | undefined = { [table]: { Keys: chunk, ConsistentRead: true } };
    while (request && Object.keys(request).length > 0) {
      const reply: BatchGetItemCommandOutput = await shadow!.send(new BatchGetItemCommand({ RequestItems: request }));
      for (const item of reply.Responses?.[table] ?? []) found.set(itemId(item), item);
      request = reply.UnprocessedKeys;
    }
  }
  return found;
}

/** A write request's items, whatever the command: its kind, table, key and (for a Put) the item. */
interface Write {
  kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  table: string;
  key: Key;
  item?: Item;
}

function writesOf(command: string, input: Record<string, unknown>): Write[] {
  const table = input.TableName as string;
  switch (command) {
    case 'PutItem':
      return [{ kind: 'Put', table, key: keyOf(input.Item as Item), item: input.Item as Item }];
    case 'UpdateItem':
      return [{ kind: 'Update', table, key: input.Key as Key }];
    case 'DeleteItem':
      return [{ kind: 'Delete', table, key: input.Key as Key }];
    case 'BatchWriteItem':
      return Object.entries(input.RequestItems as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Key } }[]>).flatMap(([name, requests]) =>
        requests.map((r): Write => (r.PutRequest ? { kind: 'Put', table: name, key: keyOf(r.PutRequest.Item), item: r.PutRequest.Item } : { kind: 'Delete', table: name, key: r.DeleteRequest!.Key })),
      );
    case 'TransactWriteItems':
      return (input.TransactItems as Record<string, { TableName: string; Key?: Key; Item?: Item }>[]).map((entry) => {
        const [kind, body] = Object.entries(entry)[0]! as [Write['kind'], { TableName: string; Key?: Key; Item?: Item }];
        return { kind, table: body.TableName, key: body.Key ?? keyOf(body.Item!), ...(body.Item && { item: body.Item }) };
      });
    default:
      return [];
  }
}

async function imagesBefore(command: string, input: Record<string, unknown>): Promise<Map<string, Item>> {
  const writes = writesOf(command, input);
  if (writes.length === 0) return new Map();
  return readItems(writes[0]!.table, writes.map((w) => w.key));
}

// ---------------------------------------------------------------------------------------------------------------
// What a request cost

const TYPES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);
/** An item as DynamoDB holds it: the document client's answers come unmarshalled at this step. */
function asItem(value: unknown): Item {
  const entries = Object.values(value as object);
  const marshalled = entries.every((v) => v && typeof v === 'object' && !(v instanceof Set) && Object.keys(v).length === 1 && TYPES.has(Object.keys(v)[0]!));
  return marshalled ? (value as Item) : (marshall(value as Record<string, unknown>, { removeUndefinedValues: true, convertClassInstanceToMap: true }) as Item);
}

const typeOf = (item: Item | undefined): string[] => (item?._type?.S ? [item._type.S] : []);

async function costOf(command: string, input: Record<string, unknown>, output: Record<string, unknown> | undefined, before: Map<string, Item>, failure: unknown): Promise<Operation & { written: string[] } | undefined> {
  const writes = writesOf(command, input);
  if (writes.length > 0) return writeOperation(command, writes, output, before, failure);
  if (failure) return undefined; // a read that failed read nothing we can size
  switch (command) {
    case 'GetItem': {
      const key = input.Key as Key;
      const item = input.ProjectionExpression ? await fullItem(input.TableName as string, key, Boolean(input.ConsistentRead)) : output?.Item ? asItem(output.Item) : undefined;
      return { command, touches: readCost(item ? [item] : [], TABLE, input.ConsistentRead ? 'strong' : 'eventual', tablePartition, tablePartition(key)), written: [] };
    }
    case 'BatchGetItem': {
      const touches: Touch[] = [];
      for (const [table, request] of Object.entries(input.RequestItems as Record<string, KeysAndAttributes>)) {
        const unprocessed = new Set(((output?.UnprocessedKeys as Record<string, KeysAndAttributes> | undefined)?.[table]?.Keys ?? []).map((k) => itemId(asItem(k))));
        const keys = request.Keys!.filter((k) => !unprocessed.has(itemId(k)));
        const returned = request.ProjectionExpression
          ? await readItems(table, keys)
          : new Map(((output?.Responses as Record<string, unknown[]> | undefined)?.[table] ?? []).map((i) => [itemId(asItem(i)), asItem(i)]));
        // Each item is read on its own, rounded on its own.
        for (const key of keys) touches.push(...readCost(returned.has(itemId(key)) ? [returned.get(itemId(key))!] : [], TABLE, request.ConsistentRead ? 'strong' : 'eventual', tablePartition, tablePartition(key)));
      }
      return { command, touches, written: [] };
    }
    case 'Query':
    case 'Scan': {
      const index = input.IndexName as string | undefined;
      const items = await itemsRead(command, input, output!);
      const read = index || !input.ConsistentRead ? 'eventual' : 'strong';
      const empty = command === 'Query' ? queriedPartition(input) : '(scan)';
      return { command, touches: readCost(items, index ?? TABLE, read, partitionOfIndex(index), empty), written: [] };
    }
    case 'TransactGetItems': {
      const gets = (input.TransactItems as { Get: { Key: Key; TableName: string } }[]).map((g) => g.Get);
      const responses = (output?.Responses as { Item?: unknown }[] | undefined) ?? [];
      const touches = gets.flatMap((get, i) => readCost(responses[i]?.Item ? [asItem(responses[i]!.Item)] : [], TABLE, 'transactional', tablePartition, tablePartition(get.Key)));
      return { command, touches, transactionItems: gets.map((g) => itemId(g.Key)), written: [] };
    }
    default:
      return undefined;
  }
}

async function writeOperation(command: string, writes: Write[], output: Record<string, unknown> | undefined, before: Map<string, Item>, failure: unknown) {
  const transactional = command === 'TransactWriteItems';
  const unprocessed = new Set(
    Object.values((output?.UnprocessedItems as Record<string, { PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }[]> | undefined) ?? {})
      .flat()
      .map((r) => itemId(asItem(r.PutRequest?.Item ?? r.DeleteRequest!.Key))),
  );
  const done = writes.filter((w) => !unprocessed.has(itemId(w.key)));
  const updated = failure ? new Map<string, Item>() : await readItems(writes[0]!.table, done.filter((w) => w.kind === 'Update').map((w) => w.key));
  const touches: Touch[] = [];
  const written: string[] = [];
  for (const w of done) {
    const id = itemId(w.key);
    const old = before.get(id);
    // A failed condition (or a cancelled transaction) changes nothing, and still costs the write.
    if (failure || w.kind === 'ConditionCheck') {
      touches.push(...writeCost(old, old ?? w.key, { transactional, changed: false }));
      continue;
    }
    const after = w.kind === 'Put' ? asItem(w.item) : w.kind === 'Update' ? updated.get(id) : undefined;
    touches.push(...writeCost(old, after ?? (w.kind === 'Delete' && !old ? w.key : after), { transactional }));
    written.push(...typeOf(after));
  }
  return { command, touches, written, ...(transactional && { transactionItems: writes.map((w) => itemId(w.key)) }) };
}

/** The items a Query or Scan read (and was charged for): its answer, or, behind a filter or projection, the same read without them. */
async function itemsRead(command: 'Query' | 'Scan', input: Record<string, unknown>, output: Record<string, unknown>): Promise<Item[]> {
  const scanned = Number(output.ScannedCount ?? output.Count ?? 0);
  const hidden = input.FilterExpression || input.ProjectionExpression || (input.Select && input.Select !== 'ALL_ATTRIBUTES' && input.Select !== 'ALL_PROJECTED_ATTRIBUTES');
  if (!hidden) return ((output.Items as unknown[] | undefined) ?? []).map(asItem);
  if (scanned === 0) return [];
  const { FilterExpression: _f, ProjectionExpression: _p, Select: _s, ReturnConsumedCapacity: _r, ...rest } = input;
  const kept = String(rest.KeyConditionExpression ?? '');
  const used = <T>(values: Record<string, T> | undefined, pattern: RegExp) => {
    const names = new Set(kept.match(pattern) ?? []);
    const left = Object.fromEntries(Object.entries(values ?? {}).filter(([name]) => names.has(name)));
    return Object.keys(left).length ? left : undefined;
  };
  const request = {
    ...rest, Limit: scanned,
    ExpressionAttributeNames: used(rest.ExpressionAttributeNames as Record<string, string> | undefined, /#[A-Za-z0-9_]+/g),
    ExpressionAttributeValues: used(rest.ExpressionAttributeValues as Record<string, AttributeValue> | undefined, /:[A-Za-z0-9_]+/g),
  };
  const reply = command === 'Query' ? await shadow!.send(new QueryCommand(request as QueryCommandInput)) : await shadow!.send(new ScanCommand(request as ScanCommandInput));
  return reply.Items ?? [];
}

/** The partition a Query names (`<partition key> = :value` in its key condition), for a Query that read nothing. */
function queriedPartition(input: Record<string, unknown>): string {
  const index = tableDefinition.globalIndexes.find((i) => i.name === input.IndexName);
  const attribute = index?.partitionKey ?? tableDefinition.partitionKey;
  const names = (input.ExpressionAttributeNames as Record<string, string> | undefined) ?? {};
  const values = (input.ExpressionAttributeValues as Record<string, AttributeValue> | undefined) ?? {};
  for (const [, left, value] of String(input.KeyConditionExpression ?? '').matchAll(/([#A-Za-z0-9_]+)\s*=\s*(:[A-Za-z0-9_]+)/g)) {
    if ((names[left!] ?? left) === attribute) return values[value!]?.S ?? '?';
  }
  return '?';
}

async function fullItem(table: string, key: Key, consistent: boolean): Promise<Item | undefined> {
  return (await shadow!.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: consistent }))).Item;
}
