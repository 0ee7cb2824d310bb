/**
 * Partition heat of one large workspace (issue 31): each workload run locally with the heat recorder on
 * (heat-recorder.ts), then projected with AWS's limits (partition-heat.ts). The workloads: one-off invoices created
 * and validated across 16 invoicing entities; a billing day of renewals across 16 entities (billing-scenarios.ts's
 * seeding and the scheduled work as it runs locally); events for one customer and across 1,000 customers (through
 * POST /v1/events/batch, then the stream's usage application); the webhook messages the invoices and renewals produce
 * (the stream handler, fed in Lambda's batches of 100); a scheduler tick (the scheduled function's handler) with
 * 100,000 subscriptions scheduled and 100 due. Per unit of work the figures do not depend on how many units are run
 * (the same requests per invoice, per batch of 10 renewals, per stream batch of 100 events), so the first four run
 * fewer units than a day would; the tick reads what is scheduled, so it really has 100,000. Imports the shared table
 * client: import this module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { handler as streamEvents } from '../../functions/streams/events';
import { scheduledRunHandler } from '../../functions/schedules/tick';
import { streamHandler } from '../../lib/event-pipeline';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { startStreamPoller } from '../../lib/local/stream-poller';
import { clock } from '../../shared/clock';
import { chunksOf, eachLimited } from '../../shared/concurrency';
import { makeCtx } from '../../shared/context';
import { db, tableName } from '../../shared/db/client';
import { COUNTER_SHARDS } from '../../shared/db/counters';
import { dueQueueUrlEnv } from '../../shared/domain/schedules/due-queue';
import { runDueWork } from '../../shared/domain/schedules/run-due';
import { billingDueKeys, subscriptionKey } from '../../shared/domain/subscriptions/subscription';
import { LocalDeliveryQueue, useDeliveryQueue } from '../../shared/domain/webhooks/delivery-queue';
import { newId } from '../../shared/ids';
import { putBatch } from './batch-write';
import { seedWorkspace } from './billing-scenarios';
import { installHeatRecorder, inStream, setPhase, takeRecorded, uninstallHeatRecorder, type RecordedOperation } from './heat-recorder';
import { apiClient, type ApiCall } from './http';
import { heatOf, ITEM_TRANSACTIONS_PER_SECOND, type Heat } from './partition-heat';

export interface HeatBench {
  baseUrl: string;
  keys: LocalKeys;
  endpoint: string;
  entities: number;
  invoicesPerEntity: number;
  renewalsPerEntity: number;
  /** Events for one customer, and spread over `customers` (in turn: a stream batch of 100 holds 100 of them), sent `eventBatch` at a time. */
  events: number;
  spreadEvents: number;
  eventBatch: number;
  customers: number;
  tick: { scheduled: number; due: number };
  seedConcurrency: number;
}

export interface WorkloadHeat {
  name: string;
  /** What one unit of work is (`invoice`, `event`…) and how many were measured. */
  unit: string;
  units: number;
  /** Invoicing entities the work spans (the numbering items' count). */
  entities: number;
  heat: Heat;
  /** The items the numbering takes (one per entity), apart; every other item. */
  numbering: Heat['items'];
  others: Heat['items'];
  seconds: number;
}

export interface TickHeat {
  scheduled: number;
  due: number;
  rcu: number;
  wcu: number;
  heat: Heat;
  seedSeconds: number;
}

export interface HeatResults {
  workloads: WorkloadHeat[];
  tick: TickHeat;
  seconds: number;
}

const CURRENCY = 'EUR';
const HOUR = 3_600_000;
const MESSAGE_TYPE = 'webhook_message';
const USAGE_TYPE = 'usage_event';

/** The per-entity numbering item: the invoicing entity (`…#IVE#<id>` / `IVE`) holds its next invoice number. */
export const isNumberingItem = (item: string): boolean => /#IVE#[^ ]+ \| IVE$/.test(item);

/** The stream handler fed as Lambda feeds it: batches of streamHandler.batchSize, the first failure reported with all after it. */
function inLambdaBatches(handle: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const records of chunksOf(event.Records, streamHandler.batchSize)) {
      const failures = (await handle({ Records: records })).batchItemFailures;
      if (failures.length > 0) return { batchItemFailures: [failures[0]!] };
    }
    return { batchItemFailures: [] };
  };
}

/** The stream runtime for one phase, its requests recorded as the stream's (inStream); it sees what is written after it starts. */
async function startStream(endpoint: string) {
  useDeliveryQueue(new LocalDeliveryQueue(() => clock.now()));
  const poller = await inStream(() => startStreamPoller({ endpoint, tableName: tableName(), from: 'latest', handler: inLambdaBatches(streamEvents) }));
  return { settle: () => inStream(() => poller.drain()), stop: () => poller.stop() };
}

const shortId = () => Math.random().toString(36).slice(2, 10);

async function workspace(bench: HeatBench, label: string): Promise<{ id: string; call: ApiCall }> {
  const id = `ws_bench_heat_${label}_${shortId()}`;
  return { id, call: apiClient(bench.baseUrl, await signToken(bench.keys, { workspace: id, scope: 'read write' })) };
}

/**
 * Runs `work` as the phase `name`, the stream running beside it (started after the set-up has flowed through, so only
 * what the work writes is recorded); returns what was recorded by the work and by the stream, and how long it took.
 */
async function phase(bench: HeatBench, name: string, work: () => Promise<void>) {
  const stream = await startStream(bench.endpoint);
  const started = performance.now();
  try {
    setPhase(name);
    await work();
    await stream.settle();
  } finally {
    setPhase(undefined);
    await stream.stop();
  }
  return { requests: takeRecorded(name), stream: takeRecorded(`${name}:stream`), seconds: (performance.now() - started) / 1000 };
}

function workload(name: string, unit: string, units: number, entities: number, operations: RecordedOperation[], seconds: number): WorkloadHeat {
  const heat = heatOf(operations, units);
  return {
    name, unit, units, entities, heat, seconds,
    numbering: heat.items.filter((i) => isNumberingItem(i.item)),
    others: foldCounterShards(heat.items.filter((i) => !isNumberingItem(i.item)), heat.transactions, units),
  };
}

/** A shard of a sharded counter (shared/db/counters.ts: `WS#<ws>#COUNTER#<counter>#<shard> | <counter>`). */
const COUNTER_SHARD = /^(.*#COUNTER#[^#]+)#\d+( \| .*)$/;

/**
 * A sharded counter's shard is picked at random for each update: in the long run each is in 1/COUNTER_SHARDS of its
 * counter's transactions. A few hundred transactions cannot measure a share that small (one of 160 is already
 * 0.6 %): the largest shard's count is sampling noise. So a counter's shards are reported as one line, `#<shard>`,
 * with the share each converges to, its counter's ÷ COUNTER_SHARDS (and the count of the busiest shard seen beside).
 */
function foldCounterShards(items: WorkloadHeat['others'], transactions: number, units: number): WorkloadHeat['others'] {
  const counters = new Map<string, number>();
  const busiest = new Map<string, number>();
  const rest = items.filter((i) => {
    const match = COUNTER_SHARD.exec(i.item);
    if (!match) return true;
    const name = `${match[1]}#<shard of ${COUNTER_SHARDS}>${match[2]}`;
    counters.set(name, (counters.get(name) ?? 0) + i.transactions);
    busiest.set(name, Math.max(busiest.get(name) ?? 0, i.transactions));
    return false;
  });
  const folded = [...counters].map(([item, total]) => {
    const each = total / COUNTER_SHARDS;
    const perUnit = each / units;
    return { item: `${item} (busiest seen: ${busiest.get(item)} of ${transactions})`, transactions: each, share: each / transactions, perUnit, ceiling: ITEM_TRANSACTIONS_PER_SECOND / perUnit };
  });
  return [...rest, ...folded].sort((a, b) => b.share - a.share);
}

const written = (operations: RecordedOperation[], type: string) => operations.reduce((n, o) => n + o.written.filter((t) => t === type).length, 0);

/** One-off invoices across the entities, each for a customer of its own: created, then validated (16 at once, one per entity). */
async function oneOffInvoices(bench: HeatBench) {
  const { call } = await workspace(bench, 'invoices');
  const entities: string[] = [];
  for (let k = 0; k < bench.entities; k++) {
    entities.push((await call<{ id: string }>('POST', '/v1/invoicing-entities', 201, { name: `Bench Heat ${k} SAS`, country: 'FR', currency: CURRENCY, invoice_number_pattern: `H${k}-{number}` })).id);
  }
  const product = await call<{ id: string }>('POST', '/v1/products', 201, { name: 'Platform fee', type: 'flat_fee' });
  const configuration = await call<{ id: string }>('POST', '/v1/price-configurations', 201, {
    product_id: product.id, currency: CURRENCY, type: 'fee', prices: [{ amount: 4_999 }], billing_interval: { period: 'months', count: 1 },
  });
  const total = bench.entities * bench.invoicesPerEntity;
  const customers: string[] = new Array(total);
  await eachLimited([...customers.keys()], 8, async (i) => {
    customers[i] = (await call<{ id: string }>('POST', '/v1/customers', 201, { name: `Buyer ${i}`, currency: CURRENCY, billing_address: { country: 'FR' } })).id;
  });
  console.error(`Partition heat: ${total} one-off invoices created and validated across ${bench.entities} entities…`);
  const recorded = await phase(bench, 'invoices', () =>
    eachLimited(entities, entities.length, async (entityId) => {
      const k = entities.indexOf(entityId);
      for (let i = 0; i < bench.invoicesPerEntity; i++) {
        const invoice = await call<{ id: string }>('POST', '/v1/invoices', 201, {
          customer_id: customers[k * bench.invoicesPerEntity + i], invoicing_entity_id: entityId,
          line_items: [{ price_configuration_id: configuration.id, quantity: 2 }, { name: 'Onboarding', unit_amount: 25_000 }],
        });
        await call('POST', `/v1/invoices/${invoice.id}/validate`, 200);
      }
    }),
  );
  return { total, recorded };
}

/** A billing day across the entities: the subscriptions seeded as billing-scenarios.ts seeds them, billed by the scheduled work (16 workers). */
async function renewals(bench: HeatBench) {
  const count = bench.entities * bench.renewalsPerEntity;
  const seeded = await seedWorkspace({ baseUrl: bench.baseUrl, keys: bench.keys, seedConcurrency: bench.seedConcurrency } as never, count, bench.entities, { loops: 0, templates: 0, pool: 0 });
  console.error(`Partition heat: a billing day of ${count} renewals across ${bench.entities} entities (16 workers)…`);
  let done = 0;
  const recorded = await phase(bench, 'renewals', async () => {
    const run = await runDueWork(new Date(), { workspaces: new Set([seeded.workspaceId]) }, { workers: 16, maxReceives: 5 });
    if (run.failed > 0 || run.done !== count) throw new Error(`renewals: ${run.done} done, ${run.failed} failed of ${count}`);
    done = run.done;
  });
  return { done, recorded };
}

/** `count` events through POST /v1/events/batch, for `customerCount` customers in turn, within one hour; then the stream's usage application. */
async function events(bench: HeatBench, label: string, count: number, customerCount: number) {
  const { call } = await workspace(bench, label);
  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench Usage SAS', country: 'FR', currency: CURRENCY });
  await call('POST', '/v1/aggregators', 201, { name: 'Tokens', event_type: 'llm.completion', operation: 'sum', property: 'tokens' });
  const customers: string[] = new Array(customerCount);
  await eachLimited([...customers.keys()], 8, async (i) => {
    customers[i] = (await call<{ id: string }>('POST', '/v1/customers', 201, { name: `Metered ${i}`, currency: CURRENCY })).id;
  });
  // All within the last full hour: one hour bucket per customer, as a burst inside one hour meets it.
  const start = Math.floor(Date.now() / HOUR) * HOUR - HOUR + 60_000;
  const batches = chunksOf(Array.from({ length: count }, (_, i) => i), bench.eventBatch);
  console.error(`Partition heat: ${count.toLocaleString('en-US')} events for ${customerCount.toLocaleString('en-US')} customer${customerCount === 1 ? '' : 's'}…`);
  return phase(bench, label, async () => {
    for (const batch of batches) {
      const body = batch.map((i) => ({
        customer_id: customers[i % customerCount], event_type: 'llm.completion', timestamp: new Date(start + Math.floor((i * (HOUR / 4)) / count)).toISOString(),
        record: { id: `${label}-${i}`, tokens: 100 + (i % 50), model: 'large' },
      }));
      await call('POST', '/v1/events/batch', 201, body);
    }
  });
}

/** Entries in the scheduling index (gsi4), of every workspace: what a tick that scans it reads. */
async function scheduledEntries(): Promise<number> {
  let count = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName(), IndexName: 'gsi4', Select: 'COUNT', ExclusiveStartKey: cursor }));
    count += page.Count ?? 0;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return count;
}

/**
 * A tick of the scheduled function (its handler, the queue a stand-in that accepts every message) over `scheduled`
 * subscriptions of one workspace in the scheduling index, `due` of them due a minute ago and the others over the next
 * 30 days. Seeded as the items' scheduling keys (billingDueKeys) with BatchWriteItem: the tick reads nothing else. The
 * index also holds what the workloads before left scheduled (renewed subscriptions: next month), counted in.
 */
async function schedulerTick(bench: HeatBench): Promise<TickHeat> {
  const { due } = bench.tick;
  const scheduled = bench.tick.scheduled;
  console.error(`Partition heat: seeding ${scheduled.toLocaleString('en-US')} scheduled subscriptions (${due} due) for a scheduler tick…`);
  const started = performance.now();
  const ctx = makeCtx(`ws_bench_heat_tick_${shortId()}`, 'bench');
  const entities = Array.from({ length: 16 }, () => newId('ive'));
  let made = 0;
  const scheduledAt = (at: number) => {
    const id = newId('sub');
    const when = new Date(at).toISOString();
    const subscription = { id, invoicing_entity_id: entities[made++ % entities.length]!, next_billing_at: when, starts_at: when, status: 'active' as const, billing_index: 1 };
    return { ...subscriptionKey(ctx, id), ...subscription, ...billingDueKeys(ctx, subscription) };
  };
  const seed = (items: Record<string, unknown>[]) => eachLimited(chunksOf(items, 25), bench.seedConcurrency, (batch) => putBatch(db, batch, 'scheduled subscriptions'));
  const later = Date.now() + HOUR;
  await seed(Array.from({ length: scheduled - due }, (_, i) => scheduledAt(later + Math.floor((i * 30 * 24 * HOUR) / scheduled))));
  // The due ones last, due 30 s before the tick: inside the window a tick between sweeps looks back on (tickWindow).
  await seed(Array.from({ length: due }, () => scheduledAt(Date.now() - 30_000)));
  const seedSeconds = (performance.now() - started) / 1000;
  process.env[dueQueueUrlEnv] = 'https://sqs.local/heat-due';
  let queued = 0;
  const queue = { send: async (command: { input: { Entries?: unknown[] } }) => ((queued += command.input.Entries?.length ?? 0), { Failed: [] }) } as unknown as SQSClient;
  setPhase('tick');
  const run = await scheduledRunHandler(queue)({}, { getRemainingTimeInMillis: () => 60_000 }).finally(() => setPhase(undefined));
  const heat = heatOf(takeRecorded('tick'), 1);
  if (!('due' in run) || queued < due) throw new Error(`the tick queued ${queued} of the ${due} due: ${JSON.stringify(run)}`);
  return { scheduled: await scheduledEntries(), due: queued, rcu: heat.totalRcu, wcu: heat.totalWcu, heat, seedSeconds };
}

export async function measureHeat(bench: HeatBench): Promise<HeatResults> {
  const started = performance.now();
  installHeatRecorder();
  try {
    const invoices = await oneOffInvoices(bench);
    const billing = await renewals(bench);
    const one = await events(bench, 'events-one', bench.events, 1);
    const many = await events(bench, 'events-many', bench.spreadEvents, bench.customers);
    const messages = [...invoices.recorded.stream, ...billing.recorded.stream];
    const workloads = [
      workload(`one-off invoices, created and validated, ${bench.entities} entities`, 'invoice', invoices.total, bench.entities, invoices.recorded.requests, invoices.recorded.seconds),
      workload(`renewals (a billing day), ${bench.entities} entities`, 'renewal', billing.done, bench.entities, billing.recorded.requests, billing.recorded.seconds),
      workload('events, one customer (ingestion + usage application)', 'event', bench.events, 1, [...one.requests, ...one.stream], one.seconds),
      workload(`events, ${bench.customers.toLocaleString('en-US')} customers (ingestion + usage application)`, 'event', bench.spreadEvents, 1, [...many.requests, ...many.stream], many.seconds),
      workload(`webhook messages (of the invoices and renewals, ${bench.entities} entities)`, 'message', written(messages, MESSAGE_TYPE), bench.entities, messages,
        invoices.recorded.seconds + billing.recorded.seconds),
    ];
    const ingested = written([...one.requests, ...many.requests], USAGE_TYPE);
    if (ingested !== bench.events + bench.spreadEvents) throw new Error(`events: ${ingested} usage events written, expected ${bench.events + bench.spreadEvents}`);
    const tick = await schedulerTick(bench);
    return { workloads, tick, seconds: (performance.now() - started) / 1000 };
  } finally {
    uninstallHeatRecorder();
  }
}
