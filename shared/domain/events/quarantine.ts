import { DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { gunzipSync, gzipSync } from 'node:zlib';
import { clock } from '../../clock';
import { db, tableName } from '../../db/client';
import { writeUnlessDone } from '../../db/transactions';
import { workspaceOf } from '../../db/keys';
import { processRecord } from './stream-record';
import { applyUsageRecords } from '../metering/usage-stream';

/**
 * Stream records the stream handler could not turn into events (docs/operations.md, "Quarantined stream records").
 * One item per record, keyed by the stream record's eventID: `WS#<ws>#QRN` / `<eventID>` when the changed item's key
 * names a workspace, else the operator partition `OPS#QRN` / `<eventID>`. The item keeps the record itself (gzipped
 * JSON, binary, so no nesting limit applies) while it fits, so it can be replayed once the cause is fixed.
 */
export const QUARANTINE = 'QRN';
export const UNKNOWN_WORKSPACE_PARTITION = `OPS#${QUARANTINE}`;
/** The ref of a record whose workspace is unknown starts with this instead of a workspace id (which has no `@`). */
export const NO_WORKSPACE = '@ops';
/** Records larger than this (gzipped) are not kept: the item must stay under DynamoDB's 400 KB. */
const MAX_KEPT_RECORD_BYTES = 300 * 1024;

export interface QuarantineItem {
  pk: string;
  sk: string;
  _type: 'stream_quarantine';
  /** What operators pass to replay or discard: `<workspace>/<eventID>` (`@ops/<eventID>` when the workspace is unknown). */
  ref: string;
  workspace_id: string | null;
  stream_event_id: string;
  sequence_number: string | null;
  event_name: string | null;
  event_source_arn: string | null;
  /** The changed item's key and type. */
  item_pk: string | null;
  item_sk: string | null;
  item_type: string | null;
  reason: string;
  quarantined_at: string;
  /** The stream record, gzipped JSON; null when it was too large to keep. */
  record: Uint8Array | null;
  record_bytes: number;
}

/** The public view of a quarantine item (what `npm run quarantine -- list` prints). */
export type QuarantinedRecord = Omit<QuarantineItem, 'pk' | 'sk' | '_type' | 'record'> & { replayable: boolean };

const partitionOf = (workspaceId: string | null) => (workspaceId ? `WS#${workspaceId}#${QUARANTINE}` : UNKNOWN_WORKSPACE_PARTITION);

const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 1000);

function keptRecord(record: DynamoDBRecord): { record: Uint8Array | null; record_bytes: number } {
  const packed = gzipSync(JSON.stringify(record));
  return { record: packed.length <= MAX_KEPT_RECORD_BYTES ? new Uint8Array(packed) : null, record_bytes: packed.length };
}

/**
 * Records a record as quarantined and counts it. Idempotent: the same record quarantined again (a retried batch)
 * is written and counted once. Throws only if the write fails, so the caller can report the record for retry.
 */
export async function quarantine(record: DynamoDBRecord, error: unknown): Promise<QuarantineItem> {
  const keys = record.dynamodb?.Keys;
  const itemPk = keys?.pk?.S ?? null;
  const image = record.dynamodb?.NewImage ?? record.dynamodb?.OldImage;
  const workspaceId = workspaceOf(itemPk) ?? null;
  const eventId = record.eventID ?? `seq-${record.dynamodb?.SequenceNumber ?? 'unknown'}`;
  const item: QuarantineItem = {
    pk: partitionOf(workspaceId),
    sk: eventId,
    _type: 'stream_quarantine',
    ref: `${workspaceId ?? NO_WORKSPACE}/${eventId}`,
    workspace_id: workspaceId,
    stream_event_id: eventId,
    sequence_number: record.dynamodb?.SequenceNumber ?? null,
    event_name: record.eventName ?? null,
    event_source_arn: record.eventSourceARN ?? null,
    item_pk: itemPk,
    item_sk: keys?.sk?.S ?? null,
    item_type: image?._type?.S ?? null,
    reason: reasonOf(error),
    quarantined_at: clock.now().toISOString(),
    ...keptRecord(record),
  };
  const put = db.send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  if (await writeUnlessDone(put)) {
    emitQuarantinedMetric(1);
    const { record: _kept, ...logged } = item;
    console.warn(JSON.stringify({ level: 'warn', message: 'stream record quarantined', ...logged }));
  }
  return item;
}

/**
 * The `QuarantinedRecords` metric as one CloudWatch embedded-metric-format line (namespace BillingApi, no
 * dimensions). Written to stdout directly: Lambda's console prefixes lines, which would hide the JSON from CloudWatch.
 */
export function emitQuarantinedMetric(count: number): void {
  const line = {
    _aws: { Timestamp: Date.now(), CloudWatchMetrics: [{ Namespace: 'BillingApi', Dimensions: [[]], Metrics: [{ Name: 'QuarantinedRecords', Unit: 'Count' }] }] },
    QuarantinedRecords: count,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const toQuarantined = (item: QuarantineItem): QuarantinedRecord => ({
  ref: item.ref,
  workspace_id: item.workspace_id,
  quarantined_at: item.quarantined_at,
  reason: item.reason,
  item_pk: item.item_pk,
  item_sk: item.item_sk,
  item_type: item.item_type,
  event_name: item.event_name,
  stream_event_id: item.stream_event_id,
  sequence_number: item.sequence_number,
  event_source_arn: item.event_source_arn,
  record_bytes: item.record_bytes,
  replayable: Boolean(item.record),
});

/**
 * Quarantined records, oldest first: of one workspace (`@ops` for the operator partition) with one Query
 * per page, or of the whole table with a Scan (an operator's occasional look; it reads every item).
 */
export async function listQuarantined(workspace?: string): Promise<QuarantinedRecord[]> {
  const found: QuarantinedRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page =
      workspace === undefined
        ? await db.send(new ScanCommand({
            TableName: tableName(), ExclusiveStartKey: start,
            FilterExpression: '#type = :type', ExpressionAttributeNames: { '#type': '_type' }, ExpressionAttributeValues: { ':type': 'stream_quarantine' },
          } satisfies ScanCommandInput))
        : await db.send(new QueryCommand({
            TableName: tableName(), ExclusiveStartKey: start,
            KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partitionOf(workspace === NO_WORKSPACE ? null : workspace) },
          } satisfies QueryCommandInput));
    found.push(...((page.Items ?? []) as QuarantineItem[]).map(toQuarantined));
    start = page.LastEvaluatedKey;
  } while (start);
  return found.sort((a, b) => a.quarantined_at.localeCompare(b.quarantined_at));
}

function keyOf(ref: string) {
  const slash = ref.indexOf('/');
  if (slash <= 0) throw new Error(`Not a quarantine ref: '${ref}' (expected <workspace>/<eventID>, or @ops/<eventID>)`);
  const workspace = ref.slice(0, slash);
  return { pk: partitionOf(workspace === NO_WORKSPACE ? null : workspace), sk: ref.slice(slash + 1) };
}

async function findQuarantined(ref: string): Promise<QuarantineItem> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keyOf(ref), ConsistentRead: true }));
  if (!Item) throw new Error(`No quarantined record '${ref}'`);
  return Item as QuarantineItem;
}

/**
 * Runs a quarantined record through the stream handler's processing again (after the cause was fixed): its usage, events,
 * messages and deliveries are written with the ids they would have had, then the quarantine item is removed. If it
 * fails again, the item stays and the error is thrown.
 */
export async function replayQuarantined(ref: string): Promise<void> {
  const item = await findQuarantined(ref);
  if (!item.record) throw new Error(`Quarantined record '${ref}' was too large to keep (${item.record_bytes} bytes gzipped): it cannot be replayed`);
  const record = JSON.parse(gunzipSync(item.record).toString('utf8')) as DynamoDBRecord;
  await applyUsageRecords([record]);
  await processRecord(record);
  await discardQuarantined(ref);
}

/** Removes a quarantined record (after a replay, or when an operator decides its events are not needed). */
export async function discardQuarantined(ref: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: keyOf(ref) }));
}
