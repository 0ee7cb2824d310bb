/**
 * A billing day: `subscriptions` monthly subscriptions all due at once, billed by the scheduled work as it runs locally
 * (`runDueWork`: the reading of the scheduling index, the queue, N in-process workers, each taking batches of 10 items:
 * `runDueBatch`), with 1, 4 and 16 workers on one invoicing entity, and 16 workers on 16 entities, each in a workspace
 * of its own. An entity's renewals share one message group, so the queue runs one batch per entity at a time. Beside
 * each run, its floor: the run's DynamoDB work sent directly, that is the sequence one batch sends (metered) for as many
 * renewals, with as many batches in flight as the queue runs, retried as the domain retries when the numbering
 * counter's condition fails, and the same reading of the scheduling index. Then checks that
 * every subscription was invoiced exactly once, that each entity's invoice numbers have no gap and no duplicate, and
 * that a second run finds nothing due. Imports the shared table client: import this module only once
 * DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { makeCtx, type Ctx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { pushTo } from '../../shared/concurrency';
import { getItem, raceBackoff } from '../../shared/db/items';
import { counterKey, listIndexKeys, listPartitions } from '../../shared/db/keys';
import { transactWrite } from '../../shared/db/transactions';
import { CUSTOMER, customerItemKey, subscriptionSummaryAttribute, type CustomerItem } from '../../shared/domain/customers/customer';
import { INVOICE, invoiceKey, invoiceListKeys, type InvoiceItem } from '../../shared/domain/invoices/invoice';
import { entityItemKey, type EntityItem } from '../../shared/domain/invoicing-entities/invoicing-entity';
import { findDueItems, type DueItem } from '../../shared/domain/schedules/due-item';
import { LOCAL_BATCH, runDueBatch, runDueWork } from '../../shared/domain/schedules/run-due';
import { prepareSubscription } from '../../shared/domain/subscriptions/prepare';
import {
  billingDueKeys, SUBSCRIPTION, SUBSCRIPTION_BILLING, subscriptionKey, subscriptionListFields, subscriptionListKeys, subscriptionSummary, type SubscriptionItem,
} from '../../shared/domain/subscriptions/subscription';
import { newId } from '../../shared/ids';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { putBatch } from './batch-write';
import { meter, uninstallMeter, type MeteredRequest } from './dynamo-meter';
import { apiClient } from './http';

const CURRENCY = 'EUR';
/** Receives of an item before the local queue dead-letters it: the worker function's maxReceiveCount on AWS. */
const MAX_RECEIVES = 5;

export interface BillingBench {
  baseUrl: string;
  keys: LocalKeys;
  /** Subscriptions due at once in each run (one customer each, spread over the run's invoicing entities). */
  subscriptions: number;
  /** What is measured, each on a fresh workspace: this many workers, the renewals spread over this many entities. */
  runs: readonly { workers: number; entities: number }[];
  /** Parallel BatchWriteItems while seeding (untimed). */
  seedConcurrency: number;
  /**
   * Replaces DynamoDB Local with a fresh one (same endpoint, the table made again) before each run: its in-memory tables
   * hold every run's workspace, and by the third run of 10,000 renewals the JVM's heap is full and it slows down.
   */
  freshDynamo?: () => Promise<void>;
  /**
   * Renewals of each floor (batches of its sequence), spread over its loops; the warm-up ones unrecorded (a fresh JVM's
   * JIT warms up on them). `pool`: the subscriptions seeded for the floor, its rounds going round them.
   */
  floorCounts: { warmup: number; measured: number; pool: number };
}

export interface Throughput {
  seconds: number;
  /** Renewals (invoices) per second. */
  perSecond: number;
  /** DynamoDB calls per renewal, retries included (the run's: its reading of the index too). */
  callsPerRenewal: number;
  /** Transactions cancelled on the entity's numbering counter (its condition failed, or a conflict): each is a retry. */
  numberingRetries: number;
}

export interface WorkerRun {
  workers: number;
  entities: number;
  /** Batches the queue lets run at once: one per entity (its message group), at most one per worker. The floor's loops. */
  inFlight: number;
  run: Throughput & { due: number; done: number; failed: number };
  floor: Throughput & { renewals: number };
  /** Subscriptions of the run with more than one invoice, and with none. */
  duplicates: number;
  missing: number;
  /** The entities' invoice numbers (run, floor and metered templates): how many, how many repeated, how many missing below the highest of their series. */
  numbers: { count: number; repeated: number; gaps: number };
  rerun: { due: number; invoices: number };
  seedSeconds: number;
}

export interface BillingResults {
  subscriptions: number;
  /** What one worker batch of renewals sends, in order (metered on template subscriptions billed together, untimed). */
  described: string[];
  runs: WorkerRun[];
  floorCounts: BillingBench['floorCounts'];
  seconds: number;
}

async function inParallel<T>(count: number, concurrency: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    for (let i = next++; i < count; i = next++) out[i] = await make(i);
  }));
  return out;
}

/** An operation of the metered billing, in words. */
function describe(command: string, input: Record<string, unknown>): string {
  const name = (key: { pk?: unknown; sk?: unknown } | undefined) => {
    const pk = String(key?.pk ?? '');
    const sk = String(key?.sk ?? '');
    if (pk.includes('#COUNTER')) return sk.includes('customer_id=') ? "the customer's invoice counter" : `the ${sk} counter`;
    return { SUB: 'the subscription', CUS: 'the customer', IVE: 'the invoicing entity', INV: 'the invoice' }[sk] ?? sk;
  };
  const consistency = (c: unknown) => (c ? 'strongly consistent' : 'eventually consistent');
  if (command === 'GetItem') return `GetItem (${consistency(input.ConsistentRead)}: ${name(input.Key as never)})`;
  if (command === 'BatchGetItem') {
    const request = Object.values(input.RequestItems as Record<string, { Keys: object[]; ConsistentRead?: boolean }>)[0]!;
    return `BatchGetItem (${consistency(request.ConsistentRead)}: ${request.Keys.map((k) => name(k as never)).join(', ')})`;
  }
  if (command === 'TransactWriteItems') {
    const parts = (input.TransactItems as Record<string, { Key?: object; Item?: object }>[]).map((entry) => {
      const [kind, body] = Object.entries(entry)[0]!;
      return `${kind} of ${name((body.Key ?? body.Item) as never)}`;
    });
    return `TransactWriteItems (${parts.join(', ')})`;
  }
  return command;
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** Counts transactions cancelled on the invoicing entity's item (the numbering counter), on the shared client. */
const NUMBERING_PROBE = 'benchNumberingRetries';
let numberingRetries = 0;
/** DynamoDB calls by command: [calls, milliseconds spent in them, summed] (with one worker, the run's time waiting on DynamoDB). */
const byCommand = new Map<string, [number, number]>();
function installNumberingProbe(): void {
  if (db.middlewareStack.identify().some((m) => m.startsWith(NUMBERING_PROBE))) return;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const started = performance.now();
      try {
        return await next(args);
      } catch (error) {
        const items = (args.input as { TransactItems?: TransactItems }).TransactItems;
        if (context.commandName === 'TransactWriteItemsCommand' && items && numberingLost(error, items) !== false) numberingRetries += 1;
        throw error;
      } finally {
        const took = performance.now() - started;
        const name = context.commandName ?? 'unknown';
        const seen = byCommand.get(name) ?? [0, 0];
        byCommand.set(name, [seen[0] + 1, seen[1] + took]);
      }
    },
    { step: 'initialize', name: NUMBERING_PROBE },
  );
}

/**
 * Whether a transaction was cancelled on the entity's numbering counter: false when not; else the entity as its
 * failed condition returned it, or undefined after a conflict (which returns nothing).
 */
const numberingLost = (error: unknown, items: TransactItems): EntityItem | undefined | false => {
  const reasons = (error as { CancellationReasons?: { Code?: string; Item?: Parameters<typeof unmarshall>[0] }[] }).CancellationReasons;
  const at = items.findIndex((entry) => (entry.Update?.Key as { sk?: string } | undefined)?.sk === 'IVE');
  const reason = reasons?.[at];
  if (at < 0 || !reason || !['ConditionalCheckFailed', 'TransactionConflict'].includes(reason.Code ?? '')) return false;
  return reason.Item ? (unmarshall(reason.Item) as EntityItem) : undefined;
};

type CommandTimes = Map<string, [number, number]>;
const snapshot = (): CommandTimes => new Map([...byCommand].map(([name, [count, ms]]) => [name, [count, ms]]));
/** Adds to `into` the calls and milliseconds by command since `since`. */
const addSince = (into: CommandTimes, since: CommandTimes): void => {
  for (const [name, [count, ms]] of byCommand) {
    const [c0, m0] = since.get(name) ?? [0, 0];
    const [c1, m1] = into.get(name) ?? [0, 0];
    if (count > c0) into.set(name, [c1 + count - c0, m1 + ms - m0]);
  }
};
/** `12.3 s in DynamoDB calls, summed over <over> (TransactWriteItems 1000 × 61.0 ms, …)` */
const inCalls = (times: CommandTimes, over: string): string => {
  const seconds = [...times.values()].reduce((sum, [, ms]) => sum + ms, 0) / 1000;
  const each = [...times].map(([name, [count, ms]]) => `${name.replace('Command', '')} ${count} × ${(ms / count).toFixed(1)} ms`);
  return `${seconds.toFixed(1)} s in DynamoDB calls, summed over ${over} (${each.join(', ')})`;
};

/** `value` with every id of `ids` in its strings (keys, attribute names and values) replaced: Sets and numbers kept. */
function withIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const [from, to] of ids) if (out.includes(from)) out = out.replaceAll(from, to);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => withIds(v, ids));
  if (value instanceof Set) return new Set([...value].map((v) => withIds(v, ids)));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [withIds(k, ids), withIds(v, ids)]));
  return value;
}

/** A renewal's two items a batch names: its subscription and its customer. */
interface Renewal {
  subscriptionId: string;
  customerId: string;
}

/**
 * One worker batch's sequence sent directly, on subscriptions of its own: the sequence the domain sent for a batch of
 * template subscriptions (metered), with the templates' ids replaced by those of 10 other subscriptions and customers
 * seeded for the floor (prepared before timing), so that each round reads and writes distinct items, as the run does.
 * A round sends the BatchGetItem of the subscriptions, the BatchGetItem of their customers and entity, then the
 * TransactWriteItems rebuilt on what they returned (each invoice under a new id and the number its place gives it,
 * each subscription's Put moved to its next billing date on its version and billing date read, the entity's numbering
 * Update on the number read). When the numbering condition fails, the transaction is sent again at once renumbered
 * from the entity its cancellation returned; after a conflict, from a GetItem of the entity after the domain's
 * jittered backoff: as the domain's writeBatch retries.
 */
function floorBatch(ctx: Ctx, requests: MeteredRequest[], templates: readonly Renewal[], own: readonly Renewal[]) {
  const commands = requests.map((r) => r.command).join(', ');
  if (requests.length !== 3 || requests[0]!.command !== 'BatchGetItem' || requests[1]!.command !== 'BatchGetItem' || requests[2]!.command !== 'TransactWriteItems') {
    throw new Error(`a batch of renewals sent ${commands}: the floor expects BatchGetItem, BatchGetItem, TransactWriteItems`);
  }
  const ids = new Map(templates.flatMap((t, i) => [[t.subscriptionId, own[i]!.subscriptionId], [t.customerId, own[i]!.customerId]]));
  const [subscriptions, reads, write] = requests.map((r) => withIds(r.input, ids)) as [object, object, { TransactItems: TransactItems }];
  const template = write.TransactItems;
  const renewals = template.filter((entry) => entry.Put?.Item?.sk === 'INV').length;
  // The invoice Puts, the subscriptions' Puts and the numbering Update, rebuilt on what the reads returned; then,
  // after a lost race, renumbered from the entity its cancellation returned (or a GetItem after a conflict).
  const numbered = (base: number, byId: Map<string, SubscriptionItem>, ids: string[]) => {
    let place = 0;
    return template.map((entry) => {
      if (entry.Put && entry.Put.Item!.sk === 'INV') {
        const id = ids[place]!;
        const invoice = entry.Put.Item as InvoiceItem;
        // The number the entity's counter gives its place (the template's, with its sequence replaced).
        const number = invoice.number!.replace(/\d+$/, String(base + place++));
        const item = { ...invoice, ...invoiceKey(ctx, id), ...invoiceListKeys(ctx, new Date().toISOString(), id), id, number, lf: { ...invoice.lf, number } };
        return { Put: { ...entry.Put, Item: item } };
      }
      if (entry.Put && entry.Put.Item!.sk === 'SUB') {
        const subscription = byId.get(entry.Put.Item!.id as string)!;
        const values = { ':at': subscription.next_billing_at, ':v': subscription._version };
        // The template's written item (moved to its next billing date, with its scheduling-index entry) on this version.
        return { Put: { ...entry.Put, Item: { ...entry.Put.Item, _version: subscription._version + 1 }, ExpressionAttributeValues: values } };
      }
      if (entry.Update && (entry.Update.Key as { sk: string }).sk === 'IVE') {
        return { Update: { ...entry.Update, ExpressionAttributeValues: { ...entry.Update.ExpressionAttributeValues, ':current': base, ':next': base + renewals } } };
      }
      return entry;
    });
  };
  const round = async () => {
    const read = await db.send(new BatchGetCommand(subscriptions as never));
    const byId = new Map(Object.values(read.Responses ?? {}).flat().map((item) => [item.id as string, item as SubscriptionItem]));
    const got = await db.send(new BatchGetCommand(reads as never));
    const entity = Object.values(got.Responses ?? {}).flat().find((item) => item.sk === 'IVE') as EntityItem;
    const ids = Array.from({ length: renewals }, () => newId('inv'));
    let base = entity.next_invoice_number;
    for (let attempt = 0; ; attempt++) {
      const items = numbered(base, byId, ids);
      try {
        await db.send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (error) {
        // No cap on attempts: the floor is what the sequence costs however contended, not a test of giving up.
        const latest = numberingLost(error, items);
        if (latest === false) throw error;
        if (latest) base = latest.next_invoice_number;
        else {
          await raceBackoff(attempt);
          base = (await db.send(new GetCommand({ TableName: tableName(), Key: entityItemKey(ctx, entity.id), ConsistentRead: true }))).Item!.next_invoice_number;
        }
      }
    }
  };
  return { round, renewals };
}

const dueItem = (workspace: string, id: string): DueItem => ({ workspace, kind: SUBSCRIPTION_BILLING, id, ...subscriptionKey(makeCtx(workspace, 'bench'), id), due: '' });

export interface Seeded {
  ctx: Ctx;
  workspaceId: string;
  call: ReturnType<typeof apiClient>;
  /** Subscriptions billed together before the run (metered): a batch per floor loop. */
  templates: SubscriptionItem[];
  /** Each floor loop's own subscriptions, out of the scheduling index (the run never finds them), by batch. */
  pools: Renewal[][][];
  /** The subscriptions the run bills. */
  ids: string[];
  seedSeconds: number;
}

/**
 * A fresh workspace: an invoicing entity, a flat fee and a seat price, and one customer with its subscription made the
 * real way (`POST /v1/customers`, then `prepareSubscription`'s items in one transaction), read back; then `count` more
 * of each as exact copies with their own ids, keys and summaries (BatchWriteItem; the list counters moved by as many),
 * all starting now, so every one is due. The first `templates` of them are the floor's templates, the next
 * `loops × pool` its loops' own (due in ten years in the scheduling index: only the floor bills them).
 */
export async function seedWorkspace(
  { baseUrl, keys, seedConcurrency }: BillingBench, count: number, entities: number, floor: { loops: number; templates: number; pool: number },
): Promise<Seeded> {
  const { templates, pool, loops } = floor;
  const floorOnly = templates + loops * pool;
  const started = performance.now();
  const workspaceId = `ws_bench_day_${Math.random().toString(36).slice(2, 10)}`;
  const ctx = makeCtx(workspaceId, 'bench');
  const call = apiClient(baseUrl, await signToken(keys, { workspace: workspaceId, scope: 'read write' }));
  // Entity k numbers `E<k>-<n>`: each series is checked on its own. The first one made is the workspace's default.
  const entityIds: string[] = [];
  for (let k = 0; k < entities; k++) {
    const entity = await call<{ id: string }>('POST', '/v1/invoicing-entities', 201, { name: `Bench Billing Day ${k} SAS`, country: 'FR', currency: CURRENCY, invoice_number_pattern: `E${k}-{number}` });
    entityIds.push(entity.id);
  }
  // The floor's subscriptions sit in the entity of their floor loop; the others are spread evenly.
  const loopOf = (i: number) => (i < templates ? Math.floor(i / LOCAL_BATCH) : Math.floor((i - templates) / pool));
  const entityOf = (i: number) => entityIds[(i < floorOnly ? loopOf(i) : i) % entities]!;
  const product = async (name: string, type: string, prices: Record<string, unknown>) => {
    const made = await call<{ id: string }>('POST', '/v1/products', 201, { name, type });
    const configuration = await call<{ id: string }>('POST', '/v1/price-configurations', 201, {
      product_id: made.id, currency: CURRENCY, ...prices, billing_interval: { period: 'months', count: 1 },
    });
    return { product_id: made.id, price_configuration_id: configuration.id };
  };
  const platform = await product('Platform', 'flat_fee', { type: 'fee', prices: [{ amount: 4_900 }] });
  const seats = await product('Seats', 'seat', { type: 'volume', prices: [{ from: 1, to: null, amount: 1_200, unit_count: 1, on_tier_incomplete: 'pro_rata' }] });
  const products = [{ ...platform, quantity: 1 }, { ...seats, quantity: 5 }];
  const startsAt = new Date().toISOString();
  const first = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Subscriber 0', currency: CURRENCY, billing_address: { country: 'FR' } });
  const prepared = await prepareSubscription(ctx, { customer_id: first.id, starts_at: startsAt, products });
  await transactWrite(prepared.items);
  const customerTemplate = await getItem<CustomerItem>(customerItemKey(ctx, first.id), true);
  const subscriptionTemplate = await getItem<SubscriptionItem>(subscriptionKey(ctx, prepared.subscription.id), true);
  if (!customerTemplate || !subscriptionTemplate) throw new Error('seeding: the template subscription was not written');
  const { [subscriptionSummaryAttribute(subscriptionTemplate.id)]: _summary, ...customerBase } = customerTemplate as CustomerItem & Record<string, unknown>;
  const ids: string[] = [subscriptionTemplate.id];
  const pools: Renewal[][][] = Array.from({ length: loops }, () => []);
  const items: Record<string, unknown>[] = [];
  for (let i = 1; i < count + floorOnly; i++) {
    const customerId = newId('cus');
    const id = newId('sub');
    const subscription: SubscriptionItem = {
      ...subscriptionTemplate, ...subscriptionKey(ctx, id), ...subscriptionListKeys(ctx, subscriptionTemplate.created_at, id), id, customer_id: customerId, invoicing_entity_id: entityOf(i),
      products: subscriptionTemplate.products.map((p) => ({ ...p, id: newId('subi') })),
    };
    subscription.lf = subscriptionListFields(subscription);
    if (i < templates || i >= floorOnly) Object.assign(subscription, billingDueKeys(ctx, subscription));
    else {
      // In the scheduling index as the run's are, but due in ten years: the run never finds it, and the floor's
      // renewal moves its entry as a renewal does.
      Object.assign(subscription, billingDueKeys(ctx, { ...subscription, next_billing_at: new Date(Date.parse(startsAt) + 10 * 365 * 86_400_000).toISOString() }));
      const own = pools[loopOf(i)]!;
      if (own.length === 0 || own.at(-1)!.length === LOCAL_BATCH) own.push([]);
      own.at(-1)!.push({ subscriptionId: id, customerId });
    }
    const customer = {
      ...customerBase, ...customerItemKey(ctx, customerId), ...listIndexKeys(ctx, CUSTOMER, customerTemplate.created_at, customerId), id: customerId,
      name: `Subscriber ${i}`, invoicing_entity_id: entityOf(i), [subscriptionSummaryAttribute(id)]: subscriptionSummary(subscription),
    };
    ids.push(id);
    items.push(customer, subscription as unknown as Record<string, unknown>);
  }
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, b) => items.slice(b * 25, b * 25 + 25));
  await inParallel(batches.length, seedConcurrency, (b) => putBatch(db, batches[b]!, 'subscriptions'));
  for (const type of [CUSTOMER, SUBSCRIPTION]) {
    await db.send(new UpdateCommand({ TableName: tableName(), Key: counterKey(ctx, type), UpdateExpression: 'ADD #t :n', ExpressionAttributeNames: { '#t': 'total' }, ExpressionAttributeValues: { ':n': count + floorOnly - 1 } }));
  }
  const subscriptions = (await listed(ctx, SUBSCRIPTION)).length;
  if (subscriptions !== count + floorOnly) throw new Error(`seeding: ${subscriptions} subscriptions listed, expected ${count + floorOnly}`);
  const templateItems = await Promise.all(ids.slice(0, templates).map((id) => getItem<SubscriptionItem>(subscriptionKey(ctx, id), true)));
  return { ctx, workspaceId, call, templates: templateItems as SubscriptionItem[], pools, ids: ids.slice(floorOnly), seedSeconds: (performance.now() - started) / 1000 };
}

/** The list fields (`lf`) of every item of `type` in the workspace's list index, every shard of it (an invoice's hold its number and subscription). */
async function listed<T>(ctx: Ctx, type: typeof SUBSCRIPTION | typeof INVOICE): Promise<T[]> {
  const out: T[] = [];
  for (const partition of listPartitions(ctx, type)) {
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new QueryCommand({
        TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': partition }, ExclusiveStartKey: cursor,
      }));
      for (const item of page.Items ?? []) out.push(item.lf as T);
      cursor = page.LastEvaluatedKey;
    } while (cursor);
  }
  return out;
}

type ListedInvoice = { number: string | null; subscription_id: string | null };
const listedInvoices = (ctx: Ctx) => listed<ListedInvoice>(ctx, INVOICE);

/** Numbers `E<k>-<n>`, each entity's series on its own: how many, repeated, and missing below its highest (each series starts at 1). */
function numberCheck(numbers: string[]): WorkerRun['numbers'] {
  const series = new Map<string, number[]>();
  for (const n of numbers) {
    const parts = /^(.*?)(\d+)$/.exec(n);
    if (!parts) throw new Error(`an invoice number without a trailing sequence: ${n}`);
    pushTo(series, parts[1]!, Number(parts[2]));
  }
  const check = { count: numbers.length, repeated: 0, gaps: 0 };
  for (const sequence of series.values()) {
    const unique = new Set(sequence);
    check.repeated += sequence.length - unique.size;
    check.gaps += Math.max(0, ...sequence) - unique.size;
  }
  return check;
}

async function measureWorkers(bench: BillingBench, { workers, entities }: BillingBench['runs'][number], described: string[] | undefined): Promise<{ run: WorkerRun; described: string[] }> {
  console.error(`Billing day with ${workers} worker${workers === 1 ? '' : 's'} and ${entities} entit${entities === 1 ? 'y' : 'ies'}: seeding ${bench.subscriptions.toLocaleString('en-US')} subscriptions…`);
  const inFlight = Math.min(workers, entities);
  // Each floor loop's rounds (batches of 10 renewals), warm-up and measured.
  const roundsOf = (renewals: number) => Math.ceil(renewals / (LOCAL_BATCH * inFlight));
  const floorRounds = { warmup: roundsOf(bench.floorCounts.warmup), measured: roundsOf(bench.floorCounts.measured) };
  const poolRounds = Math.min(floorRounds.warmup + floorRounds.measured, roundsOf(bench.floorCounts.pool));
  const seeded = await seedWorkspace(bench, bench.subscriptions, entities, { loops: inFlight, templates: inFlight * LOCAL_BATCH, pool: poolRounds * LOCAL_BATCH });
  const { ctx } = seeded;
  const only = { workspaces: new Set([seeded.workspaceId]) };

  // One batch of templates per floor loop, billed together and metered (untimed): what each worker batch of the run sends.
  const metered = [];
  for (let loop = 0; loop < inFlight; loop++) {
    const batch = seeded.templates.slice(loop * LOCAL_BATCH, (loop + 1) * LOCAL_BATCH).map((t) => dueItem(seeded.workspaceId, t.id));
    const cost = await meter(() => runDueBatch(batch));
    metered.push(cost);
  }
  uninstallMeter();
  const sequence = described ?? metered[0]!.requests.map((r) => describe(r.command, r.input));

  // The floor: as many loops in flight as the queue runs batches at once, each going round its entity's own
  // subscriptions, its batches prepared now, and as many renewals as the run. Its warm-up rounds go before the run, so
  // both meet DynamoDB Local warm; its measured rounds half before the run and half after, so both meet the table (and
  // the JVM's heap) as it was and as it became. The first half also sends the run's reading of the scheduling
  // index beside its loops, as the run's workers start on its first page: the floor is the run's whole DynamoDB work.
  const templateRenewals = (loop: number) => seeded.templates.slice(loop * LOCAL_BATCH, (loop + 1) * LOCAL_BATCH).map((t) => ({ subscriptionId: t.id, customerId: t.customer_id }));
  const loops = metered.map((m, loop) => seeded.pools[loop]!.map((own) => floorBatch(ctx, m.requests, templateRenewals(loop), own)));
  const perRound = loops[0]![0]!.renewals;
  const floorTotals = { batches: 0, seconds: 0, calls: 0, retries: 0, byCommand: new Map() as CommandTimes };
  const scan = async (): Promise<void> => {
    for await (const _page of findDueItems(new Date(), only)) {
      // Only its calls count: the pages are the run's to bill.
    }
  };
  const floorLoops = async (from: number, count: number, measured: boolean, withScan = false): Promise<void> => {
    const [calls, retries, started, times] = [dynamoCallCount(), numberingRetries, performance.now(), snapshot()];
    await Promise.all([
      ...loops.map(async (batches) => {
        for (let r = from; r < from + count; r++) await batches[r % batches.length]!.round();
      }),
      ...(withScan ? [scan()] : []),
    ]);
    if (!measured) return;
    floorTotals.batches += count * loops.length;
    floorTotals.seconds += (performance.now() - started) / 1000;
    floorTotals.calls += dynamoCallCount() - calls;
    floorTotals.retries += numberingRetries - retries;
    addSince(floorTotals.byCommand, times);
  };
  const firstHalf = Math.floor(floorRounds.measured / 2);
  await floorLoops(0, floorRounds.warmup, false);
  await floorLoops(floorRounds.warmup, firstHalf, true, true);

  const calls = dynamoCallCount();
  const retries = numberingRetries;
  const times = snapshot();
  const started = performance.now();
  const result = await runDueWork(new Date(), only, { workers, maxReceives: MAX_RECEIVES });
  const seconds = (performance.now() - started) / 1000;
  const run: WorkerRun['run'] = {
    ...result, seconds, perSecond: result.done / seconds, callsPerRenewal: (dynamoCallCount() - calls) / bench.subscriptions, numberingRetries: numberingRetries - retries,
  };
  const runCalls: CommandTimes = new Map();
  addSince(runCalls, times);
  console.error(`  run: ${seconds.toFixed(1)} s, of which ${inCalls(runCalls, 'its workers')}`);

  await floorLoops(floorRounds.warmup + firstHalf, floorRounds.measured - firstHalf, true);
  console.error(`  floor: ${floorTotals.seconds.toFixed(1)} s, of which ${inCalls(floorTotals.byCommand, 'its loops')}`);
  const floorRenewals = floorTotals.batches * perRound;
  const floor: WorkerRun['floor'] = {
    renewals: floorRenewals, seconds: floorTotals.seconds, perSecond: floorRenewals / floorTotals.seconds,
    callsPerRenewal: floorTotals.calls / floorRenewals, numberingRetries: floorTotals.retries,
  };

  const before = await listedInvoices(ctx);
  const rerun = await runDueWork(new Date(), only, { workers, maxReceives: MAX_RECEIVES });
  const invoices = await listedInvoices(ctx);
  const perSubscription = new Map<string, number>();
  for (const invoice of invoices) if (invoice.subscription_id) perSubscription.set(invoice.subscription_id, (perSubscription.get(invoice.subscription_id) ?? 0) + 1);
  const counts = seeded.ids.map((id) => perSubscription.get(id) ?? 0);
  const numbers = invoices.map((i) => i.number).filter((n): n is string => !!n);
  if (numbers.length !== invoices.length) throw new Error(`${invoices.length - numbers.length} invoices without a number`);
  return {
    described: sequence,
    run: {
      workers, entities, inFlight, run, floor,
      duplicates: counts.filter((c) => c > 1).length, missing: counts.filter((c) => c === 0).length,
      numbers: numberCheck(numbers), rerun: { due: rerun.due, invoices: invoices.length - before.length }, seedSeconds: seeded.seedSeconds,
    },
  };
}

export async function measureBilling(bench: BillingBench): Promise<BillingResults> {
  const started = performance.now();
  installNumberingProbe();
  const runs: WorkerRun[] = [];
  let described: string[] | undefined;
  for (const measuredRun of bench.runs) {
    await bench.freshDynamo?.();
    const measured = await measureWorkers(bench, measuredRun, described);
    described = measured.described;
    runs.push(measured.run);
    const r = measured.run;
    console.error(`  ${r.workers} workers, ${r.entities} entities: ${r.run.perSecond.toFixed(1)} invoices/s (floor ${r.floor.perSecond.toFixed(1)}), ${r.run.callsPerRenewal.toFixed(2)} calls/renewal, ` +
      `${r.run.numberingRetries} numbering retries (floor ${r.floor.numberingRetries}), ${r.run.failed} failed, ${r.duplicates} duplicates, ${r.numbers.gaps} gaps`);
  }
  return { subscriptions: bench.subscriptions, described: described ?? [], runs, floorCounts: bench.floorCounts, seconds: (performance.now() - started) / 1000 };
}
