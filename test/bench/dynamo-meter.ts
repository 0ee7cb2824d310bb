/**
 * What a request reads from DynamoDB, counted on the shared client the handlers use: a middleware on its stack
 * asks each operation for ReturnConsumedCapacity TOTAL and sums, from the responses, the index entries a Query read
 * (ScannedCount), the items a BatchGetItem or GetItem returned, and the capacity units DynamoDB reports. Only
 * while `meter` runs; the timed requests are never metered. Imports the shared table client: import this module
 * only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { db } from '../../shared/db/client';

export interface ReadCost {
  calls: number;
  queries: number;
  /** Entries read by Query (index entries; keys only on gsi3): the sum of ScannedCount. */
  indexEntries: number;
  /** Items returned by BatchGetItem. */
  batchItems: number;
  /** Items returned by GetItem (here: the counter). */
  getItems: number;
  /** Capacity units reported by DynamoDB (Local) for these calls; undefined if it reported none. */
  rcu: number | undefined;
  /** The operations in the order they were answered, e.g. `Query gsi3 (1000 entries, 25.5 RCU)`. */
  operations: string[];
  /** The same operations with what was sent (before the meter's ReturnConsumedCapacity) and the units reported. */
  requests: MeteredRequest[];
}

export interface MeteredRequest {
  command: string;
  input: Record<string, unknown>;
  /** Capacity units DynamoDB (Local) reported for this call (read or write units, by the operation). */
  units: number | undefined;
}

interface Output {
  ScannedCount?: number;
  Count?: number;
  Item?: unknown;
  Responses?: Record<string, unknown[]>;
  ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
}

const NAME = 'benchReadMeter';
let current: ReadCost | undefined;

function install(): void {
  if (db.middlewareStack.identify().some((m) => m.startsWith(NAME))) return;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const cost = current;
      if (!cost) return next(args);
      const input = args.input as Record<string, unknown>;
      const result = await next({ ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } });
      const output = result.output as Output;
      const command = String(context.commandName ?? '').replace(/Command$/, '');
      const consumed = output.ConsumedCapacity === undefined ? [] : Array.isArray(output.ConsumedCapacity) ? output.ConsumedCapacity : [output.ConsumedCapacity];
      const units = consumed.some((c) => typeof c.CapacityUnits === 'number') ? consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0) : undefined;
      if (units !== undefined) cost.rcu = (cost.rcu ?? 0) + units;
      cost.requests.push({ command, input, units });
      const rcu = units === undefined ? '' : `, ${units} RCU`;
      cost.calls += 1;
      if (command === 'Query') {
        const entries = output.ScannedCount ?? output.Count ?? 0;
        cost.queries += 1;
        cost.indexEntries += entries;
        cost.operations.push(`Query ${String(input.IndexName ?? 'table')} (${entries} entries${rcu})`);
      } else if (command === 'BatchGetItem') {
        const n = Object.values(output.Responses ?? {}).reduce((sum, items) => sum + items.length, 0);
        cost.batchItems += n;
        cost.operations.push(`BatchGetItem (${n} items${rcu})`);
      } else if (command === 'GetItem') {
        cost.getItems += output.Item ? 1 : 0;
        cost.operations.push(`GetItem (${output.Item ? 1 : 0} item${rcu})`);
      } else {
        cost.operations.push(`${command}${rcu ? ` (${rcu.slice(2)})` : ''}`);
      }
      return result;
    },
    { step: 'initialize', name: NAME },
  );
}

/** Runs `run` (one request, nothing else in flight) and returns what it read. */
export async function meter(run: () => Promise<unknown>): Promise<ReadCost> {
  install();
  if (current) throw new Error('meter: already metering');
  const cost: ReadCost = { calls: 0, queries: 0, indexEntries: 0, batchItems: 0, getItems: 0, rcu: undefined, operations: [], requests: [] };
  current = cost;
  try {
    await run();
  } finally {
    current = undefined;
  }
  return cost;
}

/** Takes the meter off the shared client. */
export function uninstallMeter(): void {
  db.middlewareStack.remove(NAME);
}
