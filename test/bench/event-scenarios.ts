/**
 * Events and webhooks: GET /v1/webhooks/messages as the workspace's log grows (1,000 vs 50,000 messages), each
 * beside its DynamoDB floor, and the time from a change to its message being listed with the local stream
 * runtime. Imports the shared table client: import this module only once DYNAMODB_ENDPOINT and TABLE_NAME are set.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { makeCtx, type Ctx } from '../../shared/context';
import { db, dynamoCallCount, tableName } from '../../shared/db/client';
import { firstReadSize } from '../../shared/db/shards';
import type { EventType } from '../../shared/domain/events/catalog';
import { DEFAULT_WINDOW_MS } from '../../shared/domain/events/list-messages';
import { messagesByTypePartitions, messagesPartitions, type WebhookMessage } from '../../shared/domain/events/messages';
import { ulidTimeBounds } from '../../shared/ids';
import { signToken, type LocalKeys } from '../../lib/local/jwt';
import { startEventRuntime } from '../../lib/local/event-runtime';
import { apiClient, type ApiCall } from './http';
import { summarize, type Summary } from './latency';
import { checkMessageShape, seedMessages, SEEDED_TYPES, typeShare, type SeedResult } from './message-seed';
import { timed } from './stats';

const DAY_MS = 24 * 3600_000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const shortId = () => Math.random().toString(36).slice(2, 10);

interface MessageList {
  meta: { iterator: string | null };
  data: WebhookMessage[];
}

// ---------------------------------------------------------------------------------------------------------------
// 1. List latency as the log grows

export interface ListSeries {
  route: Summary;
  /** The handler's DynamoDB operation sent directly: the key-range Query (Limit 51). */
  floor: Summary;
  callsPerRequest: number;
}

export interface ListSize {
  messages: number;
  seed: SeedResult;
  plain: ListSeries;
  /** `?event_types=customer.created`: one Query on that type's gsi2 partition. */
  filtered: ListSeries;
}

export interface MessageListResults {
  small: ListSize;
  large: ListSize;
  filterType: EventType;
  /** Share of the seeded messages that are of `filterType`. */
  filterShare: number;
  seededTypes: EventType[];
  counts: { warmup: number; measured: number };
  seedConcurrency: number;
  spanDays: number;
}

export interface ListBench {
  baseUrl: string;
  keys: LocalKeys;
  endpoint: string;
  sizes: { small: number; large: number };
  counts: { warmup: number; measured: number };
  seedConcurrency: number;
}

export const FILTER_TYPE: EventType = 'customer.created';
const SPAN_DAYS = 60;

/** A customer and an invoicing entity as the API returns them: the seeded messages carry copies as their data. */
async function templates(baseUrl: string, keys: LocalKeys): Promise<{ customer: Record<string, unknown>; entity: Record<string, unknown> }> {
  const token = await signToken(keys, { workspace: `ws_bench_tpl_${shortId()}`, scope: 'read write' });
  const call = apiClient(baseUrl, token);
  const entity = await call<Record<string, unknown>>('POST', '/v1/invoicing-entities', 201, { name: 'Bench Seed SAS', country: 'FR', currency: 'EUR' });
  const customer = await call<Record<string, unknown>>('POST', '/v1/customers', 201, {
    name: 'Bench Seed Customer', billing_email: 'billing@example.com', currency: 'EUR',
    billing_address: { line1: '1 rue de la Paix', city: 'Paris', zip: '75002', country: 'FR' },
  });
  return { customer, entity };
}

function dataFor(template: { customer: Record<string, unknown>; entity: Record<string, unknown> }) {
  const suffix = (i: number) => i.toString(32).toUpperCase().padStart(8, '0');
  return (type: EventType, i: number): object => {
    const base = type.startsWith('invoicing_entity.') ? template.entity : template.customer;
    const id = String(base.id);
    return { ...base, id: id.slice(0, -8) + suffix(i), name: `${String(base.name)} ${i}` };
  };
}

/** The newest-first checks a first page must pass before it is timed. */
function checkFirstPage(page: MessageList, expectedFirst: string, type: EventType | undefined, what: string): void {
  const problem =
    page.data.length !== 50 ? `${page.data.length} messages, not 50` :
    page.meta.iterator === null ? 'no iterator to a next page' :
    page.data[0]!.id !== expectedFirst ? `starts at ${page.data[0]!.id}, not the newest message ${expectedFirst}` :
    page.data.some((m, i) => i > 0 && m.id >= page.data[i - 1]!.id) ? 'not newest first' :
    type && page.data.some((m) => m.payload.event_type !== type) ? `holds messages that are not ${type}` :
    '';
  if (problem) throw new Error(`${what}: the first page is wrong: ${problem}`);
}

interface Variant {
  run: () => Promise<unknown>;
  samples: number[];
  calls: number;
}

export async function measureMessageLists(options: ListBench): Promise<MessageListResults> {
  const { baseUrl, keys, endpoint, sizes, counts } = options;
  const now = Date.now();
  const template = await templates(baseUrl, keys);
  const data = dataFor(template);

  // The seed builds its items itself; check once that they are what recordEvents stores.
  const scratch = makeCtx(`ws_bench_shape_${shortId()}`, 'bench');
  await checkMessageShape(scratch, { changeId: 'bench-shape-check', time: now - DAY_MS, events: [{ type: 'customer.created', data: data('customer.created', 1) }, { type: 'invoicing_entity.updated', data: data('invoicing_entity.updated', 2) }] });

  const sizeSetups = [];
  for (const [label, count] of [['small', sizes.small], ['large', sizes.large]] as const) {
    const workspaceId = `ws_bench_msg_${label}_${shortId()}`;
    const ctx = makeCtx(workspaceId, 'bench');
    console.error(`Seeding ${count.toLocaleString('en-US')} webhook messages into ${workspaceId} (BatchWriteItem, ${options.seedConcurrency} in flight)…`);
    const seed = await seedMessages({ endpoint, ctx, count, spanMs: SPAN_DAYS * DAY_MS, now, data, concurrency: options.seedConcurrency, label });
    const token = await signToken(keys, { workspace: workspaceId, scope: 'read' });
    sizeSetups.push({ label, count, ctx, seed, call: apiClient(baseUrl, token) });
  }

  // The handler's own operation (list-messages.ts): newest-first Queries on the default 90-day key range, one per
  // partition of the log (or of the type's index), each with the merge's first Limit (firstReadSize), all at once:
  // the merge's first round, which a uniform spread of ids makes enough for most pages. The iterator key that signs the next page is read once
  // per process and then remembered.
  const floor = (ctx: Ctx, type: EventType | undefined) => {
    const partitions = type ? messagesByTypePartitions(ctx, type) : messagesPartitions(ctx);
    return async () => {
      const at = Date.now();
      const lo = `msg_${ulidTimeBounds(at - DEFAULT_WINDOW_MS + 1)[0]}`;
      const hi = `msg_${ulidTimeBounds(at + 60_000 - 1)[1]}`;
      const pages = await Promise.all(
        partitions.map((partition) =>
          db.send(
            new QueryCommand({
              TableName: tableName(),
              ...(type && { IndexName: 'gsi2' }),
              KeyConditionExpression: `${type ? 'gsi2pk' : 'pk'} = :p AND ${type ? 'gsi2sk' : 'sk'} BETWEEN :lo AND :hi`,
              ExpressionAttributeValues: { ':p': partition, ':lo': lo, ':hi': hi },
              ScanIndexForward: false,
              Limit: firstReadSize(51, partitions.length),
            }),
          ),
        ),
      );
      const read = pages.reduce((sum, page) => sum + (page.Items?.length ?? 0), 0);
      if (read < 51) throw new Error(`floor query: ${read} items, fewer than 51`);
    };
  };

  const variants = new Map<string, Variant>();
  const add = (name: string, run: () => Promise<unknown>) => variants.set(name, { run, samples: [], calls: 0 });
  const filterPath = `/v1/webhooks/messages?event_types=${FILTER_TYPE}`;
  for (const { label, count, ctx, seed, call } of sizeSetups) {
    // Correct first pages before anything is timed (this also makes the workspace's iterator key).
    checkFirstPage(await call<MessageList>('GET', '/v1/webhooks/messages', 200), seed.newest, undefined, `${count} messages`);
    checkFirstPage(await call<MessageList>('GET', filterPath, 200), seed.newestByType.get(FILTER_TYPE)!, FILTER_TYPE, `${count} messages, ${FILTER_TYPE}`);
    add(`${label}.plain.route`, () => call('GET', '/v1/webhooks/messages', 200));
    add(`${label}.plain.floor`, floor(ctx, undefined));
    add(`${label}.filtered.route`, () => call('GET', filterPath, 200));
    add(`${label}.filtered.floor`, floor(ctx, FILTER_TYPE));
  }

  console.error(`Measuring GET /v1/webhooks/messages at ${sizes.small.toLocaleString('en-US')} and ${sizes.large.toLocaleString('en-US')} messages, plain and ?event_types=${FILTER_TYPE} (${counts.warmup} warm-up + ${counts.measured} requests each, interleaved)…`);
  // One round runs every variant once; the order rotates, so no variant always follows the same one.
  const all = [...variants.values()];
  for (let round = 0; round < counts.warmup + counts.measured; round++) {
    const record = round >= counts.warmup;
    for (let k = 0; k < all.length; k++) {
      const variant = all[(round + k) % all.length]!;
      const before = dynamoCallCount();
      const ms = await timed(variant.run);
      if (record) {
        variant.samples.push(ms);
        variant.calls += dynamoCallCount() - before;
      }
    }
  }

  const series = (label: string, kind: string): ListSeries => {
    const route = variants.get(`${label}.${kind}.route`)!;
    const floorVariant = variants.get(`${label}.${kind}.floor`)!;
    return { route: summarize(route.samples), floor: summarize(floorVariant.samples), callsPerRequest: route.calls / counts.measured };
  };
  const [small, large] = sizeSetups.map(({ label, count, seed }) => ({ messages: count, seed, plain: series(label, 'plain'), filtered: series(label, 'filtered') }));
  return { small: small!, large: large!, filterType: FILTER_TYPE, filterShare: typeShare(FILTER_TYPE), seededTypes: SEEDED_TYPES, counts, seedConcurrency: options.seedConcurrency, spanDays: SPAN_DAYS };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. From a change to its message being listed, quiet and while another workspace ingests usage events

export interface ChangeToListedResults {
  /** ms from sending POST /v1/customers to the first listing that holds its customer.created message. */
  samples: number[];
  p50: number;
  p95: number;
  max: number;
  /** Samples that were not listed within the time limit (counted as failures). */
  timeouts: number;
  /** The POST /v1/customers round trips alone (part of each sample). */
  post: Summary;
  /** Listing requests sent while waiting, per sample. */
  pollsPerSample: number;
  pollIntervalMs: number;
  warmup: number;
  limitMs: number;
  /** The noisy row: what the other workspace did while the samples were taken. */
  noise?: NoiseResults;
}

export interface ChangeBench {
  baseUrl: string;
  keys: LocalKeys;
  endpoint: string;
  samples: number;
  warmup: number;
  pollIntervalMs: number;
  /** A sample not listed by then counts as a timeout. */
  limitMs: number;
  /** The noisy row: another workspace ingests this many events as fast as it can while the samples are taken. */
  noise?: NoiseBench;
}

export interface NoiseBench {
  events: number;
  /** Events per POST /v1/events/batch, and batches in flight at once. */
  batchSize: number;
  concurrency: number;
  /** Samples are taken until the noise's usage is all applied, at least `samples` and at most this many. */
  maxSamples: number;
}

export interface NoiseResults extends NoiseBench {
  /** From the first batch sent to the last one answered. */
  ingestSeconds: number;
  /** From the first batch sent to the usage read showing every event (the usage consumer caught up). */
  appliedSeconds: number;
  /** Samples started before the usage consumer caught up. */
  samplesDuringNoise: number;
}

/** Spreads the moments of the changes over the poller's 200 ms cycle (golden-ratio offsets, 0–220 ms). */
const phaseOffset = (i: number): number => Math.floor(((i * 0.6180339887) % 1) * 220);

/** Sends a batch of events as a client should: those that failed `throttled` (not stored in time) again, until none is left. */
async function sendAll(call: ApiCall, events: unknown[]): Promise<void> {
  for (let pending = events; pending.length > 0;) {
    const { events_failed: failed } = await call<{ events_failed: { index: number; error: { code: string; message: string } }[] }>('POST', '/v1/events/batch', 201, pending);
    const other = failed.find((f) => f.error.code !== 'throttled');
    if (other) throw new Error(`POST /v1/events/batch refused event ${other.index}: ${other.error.code}: ${other.error.message}`);
    pending = failed.map((f) => pending[f.index]);
  }
}

/** A workspace with one metered customer (a sum aggregator) that sends `events` usage events as fast as it can. */
async function startNoise(options: ChangeBench, noise: NoiseBench): Promise<{ ingested: Promise<number>; applied: Promise<number> }> {
  const call = apiClient(options.baseUrl, await signToken(options.keys, { workspace: `ws_bench_noise_${shortId()}`, scope: 'read write' }));
  await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench Noise SAS', country: 'FR', currency: 'EUR' });
  const customer = await call<{ id: string }>('POST', '/v1/customers', 201, { name: 'Noisy', currency: 'EUR' });
  const aggregator = await call<{ id: string }>('POST', '/v1/aggregators', 201, { name: 'Tokens', event_type: 'llm.completion', operation: 'sum', property: 'tokens' });
  const started = performance.now();
  const now = Date.now();
  const batches = Math.ceil(noise.events / noise.batchSize);
  let next = 0;
  const sender = async () => {
    while (next < batches) {
      const b = next++;
      const events = Array.from({ length: Math.min(noise.batchSize, noise.events - b * noise.batchSize) }, (_, i) => ({
        customer_id: customer.id, event_type: 'llm.completion', timestamp: new Date(now - (b * noise.batchSize + i)).toISOString(), record: { id: `n-${b}-${i}`, tokens: 1 },
      }));
      await sendAll(call, events);
    }
  };
  const ingested = Promise.all(Array.from({ length: noise.concurrency }, sender)).then(() => (performance.now() - started) / 1000);
  const path = `/v1/customers/${customer.id}/usage?aggregator_id=${aggregator.id}&from=${new Date(now - 2 * 3600_000).toISOString()}&to=${new Date(now + 3600_000).toISOString()}`;
  const applied = ingested.then(async () => {
    while ((await call<{ value: number }>('GET', path, 200)).value < noise.events) await sleep(100);
    return (performance.now() - started) / 1000;
  });
  return { ingested, applied };
}

export async function measureChangeToListed(options: ChangeBench): Promise<ChangeToListedResults> {
  const { baseUrl, keys, pollIntervalMs, limitMs, noise } = options;
  const workspace = `ws_bench_evt_${shortId()}`;
  const call: ApiCall = apiClient(baseUrl, await signToken(keys, { workspace, scope: 'read write' }));
  // As `npm start` runs it, but from the stream's end (the seeded messages and earlier benchmarks are not replayed)
  // and without timed deliveries (the workspace has no endpoints).
  const runtime = await startEventRuntime({ endpoint: options.endpoint, tableName: tableName(), from: 'latest', deliveryTickMs: false });
  const samples: number[] = [];
  const postMs: number[] = [];
  let timeouts = 0;
  let polls = 0;
  let noisy: { ingested: Promise<number>; applied: Promise<number> } | undefined;
  let appliedAt: number | undefined;
  let samplesDuringNoise = 0;
  let noiseResult: NoiseResults | undefined;
  try {
    await call('POST', '/v1/invoicing-entities', 201, { name: 'Bench Events SAS', country: 'FR', currency: 'EUR' });
    const path = `/v1/webhooks/messages?event_types=customer.created`;
    console.error(`Measuring change → listed${noise ? `, while another workspace ingests ${noise.events.toLocaleString('en-US')} events` : ''}: ` +
      `${options.warmup} + ${options.samples} customers created, listing polled every ${pollIntervalMs} ms (stream poller at its default 200 ms)…`);
    const wanted = () => samples.length + timeouts < options.samples || (noise !== undefined && appliedAt === undefined && samples.length + timeouts < noise.maxSamples);
    for (let i = 0; i < options.warmup || wanted(); i++) {
      const record = i >= options.warmup;
      if (noise && i === options.warmup) {
        noisy = await startNoise(options, noise);
        void noisy.applied.then(() => (appliedAt = performance.now()), () => undefined);
      }
      await sleep(phaseOffset(i));
      const start = performance.now();
      if (record && noisy && appliedAt === undefined) samplesDuringNoise += 1;
      const { id } = await call<{ id: string }>('POST', '/v1/customers', 201, { name: `Bench event ${i}` });
      const posted = performance.now();
      let listed = false;
      let sent = 0;
      while (performance.now() - start < limitMs) {
        const pollStart = performance.now();
        const page = await call<MessageList>('GET', path, 200);
        sent += 1;
        if (page.data.some((m) => (m.payload.data as { id?: string }).id === id)) {
          listed = true;
          break;
        }
        await sleep(Math.max(0, pollIntervalMs - (performance.now() - pollStart)));
      }
      const elapsed = performance.now() - start;
      if (!record) continue;
      postMs.push(posted - start);
      polls += sent;
      if (listed) samples.push(elapsed);
      else timeouts += 1;
    }
  } finally {
    const noiseTimes = noisy && (await Promise.all([noisy.ingested, noisy.applied]).catch((error: unknown) => error as Error));
    await runtime.stop();
    if (noiseTimes instanceof Error) throw new Error(`the noisy workspace's ingestion failed: ${noiseTimes.message}`);
    if (noise && Array.isArray(noiseTimes)) noiseResult = { ...noise, ingestSeconds: noiseTimes[0], appliedSeconds: noiseTimes[1], samplesDuringNoise };
  }
  // A timeout counts as the limit itself, so it lands in p95/max and fails the target.
  const all = [...samples, ...Array<number>(timeouts).fill(Number.POSITIVE_INFINITY)];
  const summary = summarize(all);
  const measured = samples.length + timeouts;
  return {
    samples, p50: summary.p50, p95: summary.p95, max: Math.max(...all), timeouts, post: summarize(postMs),
    pollsPerSample: polls / measured, pollIntervalMs, warmup: options.warmup, limitMs,
    ...(noiseResult && { noise: noiseResult }),
  };
}
