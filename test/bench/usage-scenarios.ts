/**
 * Usage metering: ingestion throughput through POST /v1/events/batch (batches of 1,000) beside the raw BatchWriteItem
 * floor writing the same items; the time from an event to its usage being visible in GET /v1/customers/{id}/usage
 * (with the local stream runtime); the usage read of a month holding 1,000 vs 100,000 events, beside its Query; and
 * the stream's pre-aggregation of one hot customer (events/s and DynamoDB writes per event). Imports the shared table
 * client: import this module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { chunksOf, eachLimited, pushTo } from '../../shared/concurrency';
import { makeCtx, type Ctx } from '../../shared/context';
import { putItems } from '../../shared/db/batch-write';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import type { Key } from '../../shared/db/keys';
import { applyUsageChanges, type UsageChange } from '../../shared/domain/metering/apply-usage';
import type { AggregatorItem } from '../../shared/domain/metering/aggregator';
import { bucketOf } from '../../shared/domain/metering/bucket';
import { bucketKey, bucketPartition, hourOf, USAGE_BUCKET } from '../../shared/domain/metering/bucket-item';
import { contributionOf, type Contribution } from '../../shared/domain/metering/contribution';
import { eventItem, type EventInput } from '../../shared/domain/metering/ingest';
import type { UsageEventItem } from '../../shared/domain/metering/usage-event';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { startEventRuntime } from '../../lib/local/event-runtime';
import { apiClient, type ApiCall } from './http';
import { summarize, type Summary } from './latency';
import { timed } from './stats';

const HOUR = 3_600_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const shortId = () => Math.random().toString(36).slice(2, 10);

export interface UsageBench {
  baseUrl: string;
  keys: LocalKeys;
  endpoint: string;
  ingestion: { batchSize: number; warmup: number; measured: number };
  visible: { warmup: number; samples: number; pollIntervalMs: number; limitMs: number };
  reads: { small: number; large: number; counts: { warmup: number; measured: number } };
  hot: { events: number; batchSize: number; shards: number };
}

export interface UsageResults {
  ingestion: { batchSize: number; batches: number; routeEventsPerSecond: number; floorEventsPerSecond: number; route: Summary; floor: Summary };
  visible: { latency: Summary; timeouts: number };
  reads: { small: ReadSize; large: ReadSize; unaligned: Summary };
  hot: { events: number; batchSize: number; shards: number; eventsPerSecond: number; callsPerEvent: number };
}

export interface ReadSize {
  events: number;
  route: Summary;
  /** The one Query the read needs: the month's hour buckets of the customer and aggregator. */
  floor: Summary;
  seedSeconds: number;
}

async function workspace(options: UsageBench, label: string) {
  const id = `ws_bench_usage_${label}_${shortId()}`;
  const call = apiClient(options.baseUrl, await signToken(options.keys, { workspace: id, scope: 'read write' }));
  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench Usage SAS', country: 'FR', currency: 'EUR' });
  const customer = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Metered', currency: 'EUR' });
  const aggregator = await call<AggregatorItem>('POST', '/v1/aggregators', 201, { name: 'Tokens', event_type: 'llm.completion', operation: 'sum', property: 'tokens' });
  return { ctx: makeCtx(id, 'bench'), call, customerId: customer.id, aggregator };
}

const eventOf = (customerId: string, id: string, at: number, tokens: number): EventInput => ({
  customer_id: customerId, event_type: 'llm.completion', timestamp: new Date(at).toISOString(), record: { id, tokens, model: 'large' },
});

/** The items written as the handler writes them (putItems), without the handler; every one must land. */
async function batchWrite(items: Key[]): Promise<void> {
  const refused = await putItems(items);
  if (refused.length > 0) throw new Error(`${refused.length} items still unprocessed after retries`);
}

async function measureIngestion(options: UsageBench): Promise<UsageResults['ingestion']> {
  const { ctx, call, customerId } = await workspace(options, 'ingest');
  const { batchSize, warmup, measured } = options.ingestion;
  const start = Date.now() - 24 * HOUR;
  const batch = (b: number) => Array.from({ length: batchSize }, (_, i) => eventOf(customerId, `e-${b}-${i}`, start + i * 1000, 100 + i));
  const routeMs: number[] = [];
  const floorMs: number[] = [];
  console.error(`Measuring POST /v1/events/batch (${batchSize} events) beside BatchWriteItem of the same items (${warmup} warm-up + ${measured} rounds, interleaved)…`);
  for (let b = 0; b < warmup + measured; b++) {
    const events = batch(b);
    const floorItems = batch(b + 10_000).map((e) => eventItem(ctx, e, customerId, new Date()));
    const route = () => timed(() => call('POST', '/v1/events/batch', 201, events));
    const floor = () => timed(() => batchWrite(floorItems));
    const [r, f] = b % 2 === 0 ? [await route(), await floor()] : [0, 0];
    const [f2, r2] = b % 2 === 1 ? [await floor(), await route()] : [f, r];
    if (b >= warmup) {
      routeMs.push(b % 2 === 0 ? r : r2);
      floorMs.push(b % 2 === 0 ? f : f2);
    }
  }
  const perSecond = (ms: number[]) => (batchSize * ms.length) / (ms.reduce((n, m) => n + m, 0) / 1000);
  return { batchSize, batches: measured, routeEventsPerSecond: perSecond(routeMs), floorEventsPerSecond: perSecond(floorMs), route: summarize(routeMs), floor: summarize(floorMs) };
}

async function measureVisible(options: UsageBench): Promise<UsageResults['visible']> {
  const runtime = await startEventRuntime({ endpoint: options.endpoint, tableName: tableName(), from: 'latest', deliveryTickMs: false });
  const { call, customerId, aggregator } = await workspace(options, 'visible');
  const samples: number[] = [];
  let timeouts = 0;
  try {
    const from = new Date(Date.now() - HOUR).toISOString();
    const to = new Date(Date.now() + HOUR).toISOString();
    const path = `/v1/customers/${customerId}/usage?aggregator_id=${aggregator.id}&from=${from}&to=${to}`;
    console.error(`Measuring event → visible in GET …/usage: ${options.visible.warmup} + ${options.visible.samples} events, polled every ${options.visible.pollIntervalMs} ms…`);
    let total = 0;
    for (let i = 0; i < options.visible.warmup + options.visible.samples; i++) {
      await sleep(37 * (i % 7)); // no lock-step with the poller's 200 ms
      const started = performance.now();
      await call('POST', '/v1/events', 201, eventOf(customerId, `v-${i}`, Date.now(), 5));
      total += 5;
      let seen = false;
      while (performance.now() - started < options.visible.limitMs) {
        if ((await call<{ value: number }>('GET', path, 200)).value === total) {
          seen = true;
          break;
        }
        await sleep(options.visible.pollIntervalMs);
      }
      if (!seen) timeouts += 1;
      if (i >= options.visible.warmup) samples.push(seen ? performance.now() - started : options.visible.limitMs);
    }
  } finally {
    await runtime.stop();
  }
  return { latency: summarize(samples), timeouts };
}

/**
 * A month of events for one customer: the raw events (BatchWriteItem) and the hour buckets they make (the same pure
 * aggregation the stream applies, written directly: seeding 100,000 events through the stream would take minutes
 * and measure nothing more).
 */
async function seedMonth(ctx: Ctx, customerId: string, aggregator: AggregatorItem, events: number, monthStart: number): Promise<number> {
  const started = performance.now();
  const spacing = (30 * 24 * HOUR) / events;
  const now = new Date();
  const items = Array.from({ length: events }, (_, i) => eventItem(ctx, eventOf(customerId, `m-${events}-${i}`, monthStart + Math.floor(i * spacing), 1 + (i % 50)), customerId, now));
  const byHour = new Map<string, Contribution[]>();
  for (const item of items) {
    const c = contributionOf(aggregator, item)!;
    pushTo(byHour, hourOf(item.timestamp), c);
  }
  const buckets = [...byHour].map(([hour, list]) => ({
    ...bucketKey(ctx, customerId, aggregator.id, hour), _type: USAGE_BUCKET, _version: 1, customer_id: customerId, aggregator_id: aggregator.id, hour, ...bucketOf('sum', list),
  }));
  await batchWrite([...items, ...buckets]);
  return (performance.now() - started) / 1000;
}

async function measureReads(options: UsageBench): Promise<UsageResults['reads']> {
  const monthStart = Math.floor((Date.now() - 32 * 24 * HOUR) / HOUR) * HOUR;
  const from = new Date(monthStart).toISOString();
  const to = new Date(monthStart + 30 * 24 * HOUR).toISOString();
  const sizes = await Promise.all(
    [options.reads.small, options.reads.large].map(async (events) => {
      const w = await workspace(options, `read${events}`);
      console.error(`Seeding a month of ${events.toLocaleString('en-US')} events for one customer…`);
      const seedSeconds = await seedMonth(w.ctx, w.customerId, w.aggregator, events, monthStart);
      return { ...w, events, seedSeconds };
    }),
  );
  const results: ReadSize[] = [];
  const { warmup, measured } = options.reads.counts;
  console.error(`Measuring the usage read of a month: ${sizes.map((s) => s.events).join(' vs ')} events (${warmup} warm-up + ${measured} reads each, beside its Query)…`);
  for (const size of sizes) {
    const path = `/v1/customers/${size.customerId}/usage?aggregator_id=${size.aggregator.id}&from=${from}&to=${to}`;
    const expected = Array.from({ length: size.events }, (_, i) => 1 + (i % 50)).reduce((n, v) => n + v, 0);
    const routeMs: number[] = [];
    const floorMs: number[] = [];
    for (let i = 0; i < warmup + measured; i++) {
      const route = await timed(async () => {
        const reply = await size.call<{ value: number }>('GET', path, 200);
        if (reply.value !== expected) throw new Error(`usage read ${reply.value}, expected ${expected}`);
      });
      const floor = await timed(() =>
        db.send(new QueryCommand({
          TableName: tableName(), KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
          ExpressionAttributeValues: { ':p': bucketPartition(size.ctx, size.customerId, size.aggregator.id), ':a': `H#${hourOf(from)}`, ':b': `H#${hourOf(new Date(Date.parse(to) - HOUR).toISOString())}` },
        })),
      );
      if (i >= warmup) {
        routeMs.push(route);
        floorMs.push(floor);
      }
    }
    results.push({ events: size.events, route: summarize(routeMs), floor: summarize(floorMs), seedSeconds: size.seedSeconds });
  }
  // The same large month, its bounds 30 minutes off the hour: the two partial hours come from the raw events.
  const large = sizes[1]!;
  const unalignedPath = `/v1/customers/${large.customerId}/usage?aggregator_id=${large.aggregator.id}&from=${new Date(monthStart + HOUR / 2).toISOString()}&to=${new Date(Date.parse(to) - HOUR / 2).toISOString()}`;
  const unaligned: number[] = [];
  for (let i = 0; i < warmup + measured; i++) {
    const ms = await timed(() => large.call('GET', unalignedPath, 200));
    if (i >= warmup) unaligned.push(ms);
  }
  return { small: results[0]!, large: results[1]!, unaligned: summarize(unaligned) };
}

/**
 * The scale plan, simulated: one customer's events arrive as stream batches of `batchSize` from `shards` shards at
 * once (as Lambda would run them), all applied to the same hour buckets by the real pre-aggregation code.
 */
async function measureHotCustomer(options: UsageBench): Promise<UsageResults['hot']> {
  const { ctx, customerId, aggregator } = await workspace(options, 'hot');
  const { events, batchSize, shards } = options.hot;
  const at = Date.now() - 2 * HOUR;
  const changes: UsageChange[] = Array.from({ length: events }, (_, i) => ({
    changeId: `hot-${i}`,
    after: { ...eventItem(ctx, eventOf(customerId, `h-${i}`, at + (i % 3_600) * 1000, 3), customerId, new Date()) } as UsageEventItem,
  }));
  const batches = chunksOf(changes, batchSize);
  console.error(`Simulating a hot customer: ${events.toLocaleString('en-US')} events in stream batches of ${batchSize} from ${shards} shards at once…`);
  const before = dynamoCallCount();
  const ms = await timed(() => eachLimited(batches, shards, (batch) => applyUsageChanges(ctx, [aggregator], batch)));
  const calls = dynamoCallCount() - before;
  return { events, batchSize, shards, eventsPerSecond: events / (ms / 1000), callsPerEvent: calls / events };
}

export async function measureUsage(options: UsageBench): Promise<UsageResults> {
  const ingestion = await measureIngestion(options);
  const visible = await measureVisible(options);
  const reads = await measureReads(options);
  const hot = await measureHotCustomer(options);
  return { ingestion, visible, reads, hot };
}

export type { ApiCall };
