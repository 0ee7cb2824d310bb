import type { TargetCheck } from './targets';
import type { UsageResults } from './usage-scenarios';

/** The usage metering targets. */
export const USAGE_LIMITS = {
  /** Events/s through POST /v1/events/batch over the raw BatchWriteItem floor's events/s. */
  ingestionOverFloor: 0.7,
  visibleP95Ms: 1_000,
  /** p50 of the usage read of a month at 100,000 events over 1,000. */
  readGrowth: 1.2,
} as const;

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => `${value.toFixed(2)} ms`;

export function usageTargets(u: UsageResults): TargetCheck[] {
  const ingestion = u.ingestion.routeEventsPerSecond / u.ingestion.floorEventsPerSecond;
  const growth = u.reads.large.route.p50 / u.reads.small.route.p50;
  return [
    {
      target: `POST /v1/events/batch (${n(u.ingestion.batchSize)} events): events/s ≥ ${USAGE_LIMITS.ingestionOverFloor}× the raw BatchWriteItem floor's`,
      measured: `${ingestion.toFixed(2)}× (${n(u.ingestion.routeEventsPerSecond)} vs ${n(u.ingestion.floorEventsPerSecond)} events/s)`,
      pass: ingestion >= USAGE_LIMITS.ingestionOverFloor,
    },
    {
      target: `An event → visible in GET /v1/customers/{id}/usage: p95 ≤ ${n(USAGE_LIMITS.visibleP95Ms)} ms`,
      measured: `p95 ${ms(u.visible.latency.p95)} (p50 ${ms(u.visible.latency.p50)}; ${u.visible.timeouts} timeouts)`,
      pass: u.visible.latency.p95 <= USAGE_LIMITS.visibleP95Ms && u.visible.timeouts === 0,
    },
    {
      target: `Usage read of a month: p50 at ${n(u.reads.large.events)} events ≤ ${USAGE_LIMITS.readGrowth}× at ${n(u.reads.small.events)}`,
      measured: `${growth.toFixed(2)}× (${ms(u.reads.large.route.p50)} vs ${ms(u.reads.small.route.p50)})`,
      pass: growth <= USAGE_LIMITS.readGrowth,
    },
  ];
}

export function usageReport(u: UsageResults): string {
  const { ingestion: i, reads: r, hot: h } = u;
  return [
    '## Usage metering',
    '',
    `Ingestion: ${i.batches} batches of ${n(i.batchSize)} events for one customer, each beside BatchWriteItem of ${n(i.batchSize)} items of the same shape (25 a call, 16 calls at a time, as the handler does), interleaved.`,
    '',
    '| | p50 per batch | p95 per batch | events/s |',
    '|---|---|---|---|',
    `| POST /v1/events/batch | ${ms(i.route.p50)} | ${ms(i.route.p95)} | ${n(i.routeEventsPerSecond)} |`,
    `| floor: BatchWriteItem | ${ms(i.floor.p50)} | ${ms(i.floor.p95)} | ${n(i.floorEventsPerSecond)} |`,
    '',
    `Event → visible: POST /v1/events, then GET …/usage polled until the value includes it, with the local stream runtime (poller at 200 ms): p50 ${ms(u.visible.latency.p50)}, p95 ${ms(u.visible.latency.p95)} over ${u.visible.latency.samples} events, ${u.visible.timeouts} timeouts.`,
    '',
    'Usage read of one month (hour-aligned: 720 hour buckets, one Query), beside that Query sent alone:',
    '',
    '| events in the month | GET …/usage p50 | p95 | floor: the bucket Query p50 | seeded in |',
    '|---|---|---|---|---|',
    ...[r.small, r.large].map((s) => `| ${n(s.events)} | ${ms(s.route.p50)} | ${ms(s.route.p95)} | ${ms(s.floor.p50)} | ${s.seedSeconds.toFixed(1)} s |`),
    '',
    `The same ${n(r.large.events)}-event month with bounds 30 minutes off the hour (the two partial hours read from the raw events, ~${n(r.large.events / 720)} events an hour): p50 ${ms(r.unaligned.p50)}, p95 ${ms(r.unaligned.p95)}.`,
    '',
    `Hot customer, simulated: ${n(h.events)} events of one customer applied by the stream's pre-aggregation in batches of ${h.batchSize} from ${h.shards} shards at once (all into the same hour buckets): ${n(h.eventsPerSecond)} events/s, ${h.callsPerEvent.toFixed(3)} DynamoDB calls per event (a bucket read and one transaction per batch and bucket, and the retries of conflicting writers).`,
  ].join('\n');
}
