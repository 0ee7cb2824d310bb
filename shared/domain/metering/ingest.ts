import type { Ctx } from '../../context';
import { putItems } from '../../db/batch-write';
import type { PropertyValue } from './aggregator';
import { resolveCustomers } from './customer-refs';
import {
  eventIndexKeys, FUTURE_SKEW_MS, PAST_HORIZON_MS, RETENTION_DAYS, toUsageEvent, USAGE_EVENT, usageEventKey, type PublicUsageEvent, type UsageEventItem,
} from './usage-event';
import { EVENT_BOUNDS } from '../../schemas/bounds';

/** An event as sent (already checked against the event schema). */
export interface EventInput {
  customer_id: string;
  event_type: string;
  timestamp: string | number;
  record: { id: string } & Record<string, PropertyValue>;
}

export interface EventFailure {
  index: number;
  event: unknown;
  error: { code: string; message: string };
}

export interface IngestResult {
  created: PublicUsageEvent[];
  failed: EventFailure[];
}

/** A schema-valid event, or why not (the batch route checks each element with the single-event validator). */
export type Checked = { index: number; event: EventInput } | EventFailure;


/**
 * Stores events under `(workspace, record.id)` with BatchWriteItem: a resend replaces the event, and its usage is
 * updated by the stream from the old and new versions (apply-usage.ts), so nothing is counted twice. Events are
 * checked one by one (time horizon, size, customer); a failure never rejects the others. Within one batch the last
 * event of a record id is the one kept. Events DynamoDB still refuses after retries, or not written by `deadline`
 * (ms since the epoch: the request's answer is due), fail with `throttled`; sent again, they are stored once.
 */
export async function ingestEvents(
  ctx: Ctx, checked: Checked[], decorate: (item: UsageEventItem) => Promise<UsageEventItem> | UsageEventItem = (i) => i, deadline = Number.POSITIVE_INFINITY,
): Promise<IngestResult> {
  const failed: EventFailure[] = checked.filter((c): c is EventFailure => 'error' in c);
  const valid = checked.filter((c): c is { index: number; event: EventInput } => !('error' in c));
  const now = ctx.clock.now();
  const timed = valid.flatMap((entry) => {
    const problem = timeProblem(entry.event.timestamp, now) ?? sizeProblem(entry.event);
    if (problem) failed.push({ index: entry.index, event: entry.event, error: problem });
    return problem ? [] : [entry];
  });
  const customers = await resolveCustomers(ctx, timed.map((e) => e.event.customer_id));
  const accepted: Array<{ index: number; event: EventInput; customerId: string }> = [];
  for (const entry of timed) {
    const resolved = customers.get(entry.event.customer_id)!;
    if ('problem' in resolved) failed.push({ index: entry.index, event: entry.event, error: resolved.problem });
    else accepted.push({ ...entry, customerId: resolved.customerId });
  }
  // Decorated all at once: a decorator that reads per customer (price-calculation.ts) reads its customers in parallel.
  const items = await Promise.all(accepted.map(async ({ customerId, ...entry }) => ({ ...entry, item: await decorate(eventItem(ctx, entry.event, customerId, now)) })));
  const unwritten = await writeLatest(items.map((i) => i.item), deadline);
  const created: PublicUsageEvent[] = [];
  for (const { index, event, item } of items) {
    if (unwritten.has(item.id)) failed.push({ index, event, error: { code: 'throttled', message: 'The event was not stored in time (DynamoDB throttled or slow); send it again (same record.id).' } });
    else created.push(toUsageEvent(item));
  }
  failed.sort((a, b) => a.index - b.index);
  return { created, failed };
}

function eventTime(timestamp: string | number): Date {
  return new Date(typeof timestamp === 'number' ? timestamp : Date.parse(timestamp));
}

function timeProblem(timestamp: string | number, now: Date): { code: string; message: string } | undefined {
  const at = eventTime(timestamp).getTime();
  if (!Number.isFinite(at)) return { code: 'invalid_timestamp', message: `timestamp '${timestamp}' is not a date.` };
  if (at < now.getTime() - PAST_HORIZON_MS) return { code: 'timestamp_too_old', message: `timestamp is more than ${PAST_HORIZON_MS / 86_400_000} days in the past.` };
  if (at > now.getTime() + FUTURE_SKEW_MS) return { code: 'timestamp_in_future', message: `timestamp is more than ${FUTURE_SKEW_MS / 60_000} minutes ahead of the server's clock.` };
  return undefined;
}

function sizeProblem(event: EventInput): { code: string; message: string } | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(event), 'utf8');
  return bytes > EVENT_BOUNDS.bytes ? { code: 'event_too_large', message: `The event is ${bytes} bytes as JSON; at most ${EVENT_BOUNDS.bytes} are accepted.` } : undefined;
}

/** The stored item of an event (exported for the benchmark's floor, which writes the very same items). */
export function eventItem(ctx: Ctx, event: EventInput, customerId: string, now: Date): UsageEventItem {
  const { id, ...properties } = event.record;
  const at = eventTime(event.timestamp);
  const timestamp = at.toISOString();
  return {
    ...usageEventKey(ctx, id),
    ...eventIndexKeys(ctx, customerId, timestamp, id),
    _type: USAGE_EVENT,
    id,
    customer_id: customerId,
    event_type: event.event_type,
    timestamp,
    properties,
    ingested_at: now.toISOString(),
    ttl: Math.floor(at.getTime() / 1000) + RETENTION_DAYS * 86_400,
  };
}

/** Writes the last item of each record id (putItems); returns the ids DynamoDB still refused or did not take by `deadline`. */
async function writeLatest(items: UsageEventItem[], deadline: number): Promise<Set<string>> {
  const latest = [...new Map(items.map((item) => [item.id, item])).values()];
  return new Set((await putItems(latest, deadline)).map((item) => item.id));
}
