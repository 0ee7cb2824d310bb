import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Ctx } from '../../context';
import { db, tableName } from '../../db/client';
import type { PropertyValue } from './aggregator';
import { resolveCustomers, type RefProblem } from './customer-refs';
import {
  eventIndexKeys, FUTURE_SKEW_MS, PAST_HORIZON_MS, RETENTION_DAYS, toUsageEvent, USAGE_EVENT, usageEventKey, type PublicUsageEvent, type UsageEventItem,
} from './usage-event';
import { EVENT_BOUNDS } from '../../schemas/metering';

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

const WRITE_CHUNK = 25;
const PARALLEL_WRITES = 16;
const MAX_WRITE_ATTEMPTS = 6;

/**
 * Stores events under `(workspace, record.id)` with BatchWriteItem: a resend replaces the event, and its usage is
 * updated by the stream from the old and new versions (apply-usage.ts), so nothing is counted twice. Events are
 * checked one by one (time horizon, size, customer); a failure never rejects the others. Within one batch the last
 * event of a record id is the one kept. Events DynamoDB still refuses after retries fail with `throttled`.
 */
export async function ingestEvents(ctx: Ctx, checked: Checked[], decorate: (item: UsageEventItem) => Promise<UsageEventItem> | UsageEventItem = (i) => i): Promise<IngestResult> {
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
    if ('problem' in resolved) failed.push({ index: entry.index, event: entry.event, error: resolved.problem satisfies RefProblem });
    else accepted.push({ ...entry, customerId: resolved.customerId });
  }
  // Decorated all at once: a decorator that reads per customer (price-calculation.ts) reads its customers in parallel.
  const items = await Promise.all(accepted.map(async ({ customerId, ...entry }) => ({ ...entry, item: await decorate(eventItem(ctx, entry.event, customerId, now)) })));
  const unwritten = await writeLatest(items.map((i) => i.item));
  const created: PublicUsageEvent[] = [];
  for (const { index, event, item } of items) {
    if (unwritten.has(item.id)) failed.push({ index, event, error: { code: 'throttled', message: 'DynamoDB refused the write after retries; send this event again (same record.id).' } });
    else created.push(toUsageEvent(item));
  }
  failed.sort((a, b) => a.index - b.index);
  return { created, failed };
}

export function eventTime(timestamp: string | number): Date {
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

/** Writes the last item of each record id, 25 a call, 16 calls at a time; returns the ids still unwritten. */
async function writeLatest(items: UsageEventItem[]): Promise<Set<string>> {
  const latest = [...new Map(items.map((item) => [item.id, item])).values()];
  const chunks = Array.from({ length: Math.ceil(latest.length / WRITE_CHUNK) }, (_, i) => latest.slice(i * WRITE_CHUNK, (i + 1) * WRITE_CHUNK));
  const unwritten = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) for (const item of await putAll(chunks[next++]!)) unwritten.add(item.id);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_WRITES, chunks.length) }, worker));
  return unwritten;
}

/** One BatchWriteItem, its UnprocessedItems re-sent with backoff; returns the items never written. */
async function putAll(items: UsageEventItem[]): Promise<UsageEventItem[]> {
  let pending = items;
  for (let attempt = 0; pending.length > 0 && attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt));
    const reply = await db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending.map((Item) => ({ PutRequest: { Item } })) } }));
    const left = new Set((reply.UnprocessedItems?.[tableName()] ?? []).map((r) => (r.PutRequest?.Item as UsageEventItem).pk));
    pending = pending.filter((item) => left.has(item.pk));
  }
  return pending;
}
