import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand, DynamoDBStreamsClient, ExpiredIteratorException, GetRecordsCommand, GetShardIteratorCommand,
  ResourceNotFoundException, TrimmedDataAccessException,
  type AttributeValue as StreamAttributeValue, type Shard, type ShardIteratorType, type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The local stand-in for Lambda's DynamoDB Streams event source mapping: reads every shard of the table's stream
 * on DynamoDB Local (parents before their children, so the changes of one item stay in order) and calls the stream
 * handler with the event Lambda would build, one call per GetRecords batch. Partial batch failures
 * (ReportBatchItemFailures) and thrown errors are retried from the failed record on the next poll, as Lambda does.
 */
export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** Pause between polls that found nothing to do. Default 200 ms. */
  intervalMs?: number;
  /** Where shards without a checkpoint start: 'latest' applies only to the shards that exist when the poller starts. */
  from?: 'trim_horizon' | 'latest';
  /** JSON file: shardId → last processed sequence number, written after each successful batch. */
  checkpointFile?: string;
  /** Records for which it returns false are not passed to the handler, but are checkpointed. */
  accept?: (record: DynamoDBRecord) => boolean;
  onError?: (error: unknown) => void;
}

export interface StreamPoller {
  stop(): Promise<void>;
  /** polls every shard until a full pass returns no new records */
  drain(): Promise<void>;
}

/** Where to (re)open a shard's iterator. */
type Position =
  | { type: 'TRIM_HORIZON' | 'LATEST' }
  | { type: 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER'; sequenceNumber: string };

interface ShardState {
  id: string;
  parentId?: string;
  position: Position;
  iterator?: string;
  /** The shard is closed and every record in it has been handled. */
  exhausted: boolean;
  failures: number;
  retryAt: number;
}

/** Passes also rediscover shards (DescribeTable + DescribeStream) at least this often. */
const DISCOVERY_INTERVAL_MS = 1_000;
/** A shard whose batch keeps failing (or a poll that keeps failing) is retried after intervalMs, doubling up to this. */
const MAX_RETRY_DELAY_MS = 5_000;

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const { endpoint, tableName, handler, checkpointFile } = options;
  const intervalMs = options.intervalMs ?? 200;
  const accept = options.accept ?? (() => true);
  const onError = options.onError ?? ((error: unknown) => console.error('Stream poller:', error));
  const config = { endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const db = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);

  const checkpoints = checkpointFile ? await readCheckpoints(checkpointFile, onError) : new Map<string, string>();
  const shards = new Map<string, ShardState>();
  let streamArn: string | undefined;
  let lastDiscovery = 0;
  let stopped = false;

  async function discover(initialFrom: 'trim_horizon' | 'latest'): Promise<boolean> {
    lastDiscovery = Date.now();
    const table = await db.send(new DescribeTableCommand({ TableName: tableName }));
    const arn = table.Table?.LatestStreamArn;
    if (!arn) throw new Error(`Table '${tableName}' has no stream: enable StreamSpecification (NEW_AND_OLD_IMAGES)`);
    if (arn !== streamArn) {
      // A new stream (first discovery, or the stream was re-enabled, or the table re-created): its shards are new.
      streamArn = arn;
      shards.clear();
    }
    const listed: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const page = await streams.send(new DescribeStreamCommand({ StreamArn: arn, ExclusiveStartShardId: exclusiveStartShardId }));
      listed.push(...(page.StreamDescription?.Shards ?? []));
      exclusiveStartShardId = page.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);

    let changed = false;
    const ids = new Set<string>();
    for (const shard of listed) {
      const id = shard.ShardId!;
      ids.add(id);
      if (shards.has(id)) continue;
      const checkpoint = checkpoints.get(id);
      const position: Position = checkpoint
        ? { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: checkpoint }
        : { type: initialFrom === 'latest' ? 'LATEST' : 'TRIM_HORIZON' };
      const state: ShardState = { id, parentId: shard.ParentShardId, position, exhausted: false, failures: 0, retryAt: 0 };
      // 'latest' means "after what the shard holds now": resolve it now, not at the first read.
      if (position.type === 'LATEST') state.iterator = await openIterator(state);
      shards.set(id, state);
      changed = true;
    }
    for (const id of shards.keys()) {
      if (!ids.has(id)) {
        shards.delete(id); // trimmed: its children no longer wait for it
        changed = true;
      }
    }
    return changed;
  }

  async function openIterator(shard: ShardState): Promise<string | undefined> {
    const { position } = shard;
    try {
      const reply = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.id,
          ShardIteratorType: position.type as ShardIteratorType,
          SequenceNumber: 'sequenceNumber' in position ? position.sequenceNumber : undefined,
        }),
      );
      return reply.ShardIterator;
    } catch (error) {
      if (error instanceof TrimmedDataAccessException) {
        // The checkpoint is older than the stream keeps: start from the oldest record still there, as Lambda does.
        onError(new Error(`Stream poller: records after ${describe(position)} of ${shard.id} were trimmed; resuming at TRIM_HORIZON`));
        shard.position = { type: 'TRIM_HORIZON' };
        return openIterator(shard);
      }
      throw error;
    }
  }

  /** Parents first: a child shard is read once its parent is read to the end (or no longer listed). */
  function readable(shard: ShardState, now: number, ignoreBackoff: boolean): boolean {
    if (shard.exhausted || (!ignoreBackoff && shard.retryAt > now)) return false;
    const parent = shard.parentId ? shards.get(shard.parentId) : undefined;
    return !parent || parent.exhausted;
  }

  /**
   * One GetRecords batch per readable shard. Returns whether anything moved (records handled, shards found or
   * closed); a batch that failed without handling any record is not progress.
   */
  async function pass(mode: { discover: boolean; ignoreBackoff: boolean }): Promise<boolean> {
    let progressed = false;
    if (mode.discover || Date.now() - lastDiscovery >= DISCOVERY_INTERVAL_MS) progressed = await discover('trim_horizon');
    const now = Date.now();
    for (const shard of [...shards.values()]) {
      if (stopped) break;
      if (shards.get(shard.id) !== shard || !readable(shard, now, mode.ignoreBackoff)) continue;
      const outcome = await readShard(shard);
      if (outcome === 'closed') {
        progressed = true;
        await discover('trim_horizon'); // its children are readable now
      } else if (outcome === 'advanced') {
        progressed = true;
      }
    }
    return progressed;
  }

  async function readShard(shard: ShardState): Promise<'idle' | 'advanced' | 'failed' | 'closed'> {
    let records: _Record[];
    let next: string | undefined;
    try {
      shard.iterator ??= await openIterator(shard);
      if (!shard.iterator) return closed(shard);
      const reply = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator }));
      records = reply.Records ?? [];
      next = reply.NextShardIterator;
    } catch (error) {
      if (error instanceof ExpiredIteratorException) {
        shard.iterator = undefined; // reopened from its position on the next poll
        return 'idle';
      }
      if (error instanceof TrimmedDataAccessException) {
        shard.iterator = undefined;
        shard.position = { type: 'TRIM_HORIZON' };
        return 'idle';
      }
      if (error instanceof ResourceNotFoundException) {
        shards.delete(shard.id); // gone (trimmed, or the stream was replaced): rediscover on the next poll
        lastDiscovery = 0;
        return 'idle';
      }
      throw error; // e.g. DynamoDB Local unreachable: the iterator stays valid, the next poll retries it
    }
    if (records.length === 0) {
      if (!next) return closed(shard);
      shard.iterator = next;
      return 'idle';
    }

    const all = records.map((record) => toLambdaRecord(record, streamArn!));
    const accepted = all.filter((record) => accept(record));
    let failedAt = all.length; // index in `all` of the first record to retry
    if (accepted.length > 0) {
      try {
        const response = await handler({ Records: accepted });
        const failures = response?.batchItemFailures ?? [];
        if (failures.length > 0) {
          const indexOf = new Map(all.map((record, index) => [record.dynamodb?.SequenceNumber, index]));
          const indexes = failures.map((failure) => (accepted.some((r) => r.dynamodb?.SequenceNumber === failure.itemIdentifier) ? indexOf.get(failure.itemIdentifier) : undefined));
          if (indexes.includes(undefined)) {
            // Lambda treats an identifier that names no record of the batch as a failure of the whole batch.
            onError(new Error(`Stream handler reported unknown batchItemFailures ${JSON.stringify(failures)}: retrying the whole batch`));
            failedAt = 0;
          } else {
            failedAt = Math.min(...(indexes as number[]));
          }
        }
      } catch (error) {
        onError(error);
        failedAt = 0;
      }
    }

    const handled = all.slice(0, failedAt);
    const last = handled.at(-1)?.dynamodb?.SequenceNumber;
    if (last) {
      shard.position = { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: last };
      checkpoints.set(shard.id, last);
      if (checkpointFile) await writeCheckpoints(checkpointFile, checkpoints).catch(onError);
    }
    if (failedAt < all.length) {
      shard.position = { type: 'AT_SEQUENCE_NUMBER', sequenceNumber: all[failedAt]!.dynamodb!.SequenceNumber! };
      shard.iterator = undefined;
      shard.failures += 1;
      shard.retryAt = Date.now() + Math.min(intervalMs * 2 ** (shard.failures - 1), MAX_RETRY_DELAY_MS);
      return handled.length > 0 ? 'advanced' : 'failed';
    }
    shard.failures = 0;
    shard.retryAt = 0;
    if (!next) return closed(shard);
    shard.iterator = next;
    return 'advanced';
  }

  function closed(shard: ShardState): 'closed' {
    shard.exhausted = true;
    shard.iterator = undefined;
    return 'closed';
  }

  // One loop: a pass starts only when the previous one (timer's or drain's) has finished.
  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  }
  let failedPasses = 0;
  async function safePass(mode: { discover: boolean; ignoreBackoff: boolean }): Promise<boolean> {
    if (stopped) return false;
    try {
      const progressed = await pass(mode);
      failedPasses = 0;
      return progressed;
    } catch (error) {
      failedPasses += 1;
      onError(error);
      return false;
    }
  }

  try {
    await discover(options.from ?? 'trim_horizon');
  } catch (error) {
    db.destroy();
    streams.destroy();
    throw error;
  }

  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      const progressed = await exclusive(() => safePass({ discover: false, ignoreBackoff: false }));
      if (progressed || stopped) continue;
      // After errors (DynamoDB Local unreachable, say), wait longer each time, up to MAX_RETRY_DELAY_MS.
      const delay = failedPasses > 0 ? Math.min(intervalMs * 2 ** (failedPasses - 1), MAX_RETRY_DELAY_MS) : intervalMs;
      await new Promise<void>((resume) => {
        wake = resume;
        timer = setTimeout(resume, delay);
      });
    }
  })();

  let stopping: Promise<void> | undefined;
  return {
    // Drain retries failed batches at once (no backoff), and ends at the first pass that moves nothing.
    async drain() {
      let discover = true;
      while (!stopped && (await exclusive(() => safePass({ discover, ignoreBackoff: true })))) discover = false;
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        clearTimeout(timer);
        wake?.();
        await loop;
        await queue;
        db.destroy();
        streams.destroy();
      })();
      return stopping;
    },
  };
}

function describe(position: Position): string {
  return 'sequenceNumber' in position ? `${position.type} ${position.sequenceNumber}` : position.type;
}

/** The record as Lambda's event source mapping delivers it (images in AttributeValue JSON form, time in epoch seconds). */
export function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(change.ApproximateCreationDateTime && { ApproximateCreationDateTime: change.ApproximateCreationDateTime.getTime() / 1000 }),
      ...(change.Keys && { Keys: toImage(change.Keys) }),
      ...(change.NewImage && { NewImage: toImage(change.NewImage) }),
      ...(change.OldImage && { OldImage: toImage(change.OldImage) }),
      SequenceNumber: change.SequenceNumber,
      SizeBytes: change.SizeBytes,
      StreamViewType: change.StreamViewType,
    },
    // Time to Live deletions: { type: 'Service', principalId: 'dynamodb.amazonaws.com' }
    ...(record.userIdentity && { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } }),
  };
}

function toImage(image: Record<string, StreamAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toAttributeValue(value)]));
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/**
 * The SDK decodes binary to bytes; Lambda's JSON event carries it as base64 strings. DynamoDB Local writes an empty
 * map as `{}` in stream records (GetItem returns `{"M":{}}`): no other attribute value can be empty, so it is one.
 */
function toAttributeValue(value: StreamAttributeValue): AttributeValue {
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(toAttributeValue) };
  if (value.M !== undefined) return { M: toImage(value.M) };
  throw new Error(`Unknown attribute value type: ${JSON.stringify(value)}`);
}

async function readCheckpoints(file: string, onError: (error: unknown) => void): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return new Map(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch (error) {
    onError(new Error(`Stream poller: ignoring unreadable checkpoint file ${file} (${(error as Error).message})`));
    return new Map();
  }
}

/** Written to a temporary file, then renamed: a crash never leaves half a file. */
async function writeCheckpoints(file: string, checkpoints: Map<string, string>): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(Object.fromEntries(checkpoints), null, 2) + '\n');
  await rename(temporary, file);
}
