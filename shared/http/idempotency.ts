import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type { Ctx } from '../context';
import { db, tableName } from '../db/client';
import { withEffectClaim, type CreatedRef, type EffectClaim } from '../db/effect-claim';
import { getItem } from '../db/items';
import { entityKey, type Key } from '../db/keys';
import { ConditionFailed, translateWriteError } from '../db/transactions';
import { Conflict, InvalidRequest, RuleViolation } from '../errors';
import { headerValue } from './request-parts';
import { apiHeaders, json, type HttpResponse } from './responses';
import type { RouteMeta } from './route-meta';

/**
 * Idempotency keys (decisions.md, Conventions): a POST/PUT/PATCH carrying `Idempotency-Key` runs at most once per
 * workspace and key within 24 h. The first request claims the key with one conditional put; later requests with
 * the same key and the same request get the stored response again (`Idempotent-Replayed: true`), a different
 * request gets a 422 and a request arriving while the first still runs a 409. docs/decisions.md, "Idempotency".
 * The effect's own transaction marks the record `committed` (shared/db/effect-claim.ts), so a retry after a crash
 * between commit and answer rebuilds the answer from what was written and never applies the effect again
 * (docs/idempotency.md).
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const ORIGINAL_REQUEST_HEADER = 'original-request-id';
export const MAX_KEY_LENGTH = 255;
/** How long a key is remembered (the table's TTL attribute `ttl` deletes the record some time after). */
export const RETENTION_SECONDS = 24 * 60 * 60;
/**
 * An `in_progress` claim older than this is abandoned (its Lambda crashed or timed out: functions time out after
 * 10 s, API Gateway after 30 s) and a retry of the same request may take it over.
 */
export const LOCK_TIMEOUT_MS = 60_000;

/** The item's `_type`: not an event source (shared/domain/events/map-change.ts), so it never becomes an event. */
export const IDEMPOTENCY_TYPE = 'idempotency';
const MUTATING = new Set(['POST', 'PUT', 'PATCH']);

interface StoredResponse {
  status_code: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyItem extends Key {
  _type: typeof IDEMPOTENCY_TYPE;
  idempotency_key: string;
  /** in_progress: claimed; committed: the effect is written, its answer not (yet); completed: answer stored. */
  status: 'in_progress' | 'committed' | 'completed';
  fingerprint: string;
  route_id: string;
  /** The request that claimed the key: only it may complete or release the claim. */
  request_id: string;
  created_at: string;
  /** Epoch milliseconds of the claim (the lock timeout counts from it). */
  claimed_at: number;
  /** Epoch seconds: DynamoDB TTL deletes the item some time after; until then it is treated as absent. */
  ttl: number;
  response?: StoredResponse;
  /** Transactions the claiming request committed, and the items they created (written with them). */
  effect_count?: number;
  created?: CreatedRef[];
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** One item per (workspace, key); the key is hashed so any 255 characters make a short, `#`-free partition key. */
export const idempotencyKey = (ctx: Ctx, key: string): Key => entityKey(ctx, 'IDEMPOTENCY', sha256(key));

/** JSON with object members sorted at every level, so `{a, b}` and `{b, a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${members.join(',')}}`;
}

export interface RequestShape {
  method: string;
  routeId: string;
  path: unknown;
  query: unknown;
  body: unknown;
}

/** What makes two requests "the same": the route, its path parameters, query and validated body. */
export const fingerprint = (r: RequestShape): string =>
  sha256(canonicalJson({ method: r.method.toUpperCase(), route: r.routeId, path: r.path ?? {}, query: r.query ?? {}, body: r.body ?? null }));

/** The `Idempotency-Key` of a mutating request (400 when not 1–255 characters); undefined when absent or ignored. */
export function idempotencyKeyOf(route: Pick<RouteMeta, 'method'>, headers: APIGatewayProxyEventV2['headers']): string | undefined {
  if (!MUTATING.has(route.method.toUpperCase())) return undefined; // GET and DELETE: ignored, as Stripe does
  const key = headerValue(headers, IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) {
    throw new InvalidRequest(`The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters long.`, [
      { path: 'headers.idempotency-key', message: `must be 1 to ${MAX_KEY_LENGTH} characters long` },
    ]);
  }
  return key;
}

export const keyInProgress = () =>
  new Conflict('A request with this Idempotency-Key is still being processed; retry it later.', 'idempotency_key_in_progress');

export const keyReused = () =>
  new RuleViolation('idempotency_key_reused', 'This Idempotency-Key was already used with a different request (route, path or body).');

export type ClaimResult =
  | { claimed: true; item: IdempotencyItem }
  | { claimed: false; replay: IdempotencyItem }
  | { claimed: false; committed: IdempotencyItem };

/**
 * Claims `key` for this request with one conditional put. It succeeds when no record exists, when the record has
 * expired (TTL deletes lazily), or when an identical request's claim was abandoned (older than LOCK_TIMEOUT_MS).
 * Otherwise the existing record decides: another request → 422, still running → 409, completed → replay,
 * committed without an answer (its request crashed after the effect) → rebuild the answer. A committed claim is
 * never taken over.
 */
export async function claimKey(ctx: Ctx, key: string, print: string, routeId: string): Promise<ClaimResult> {
  const now = ctx.clock.now();
  const item: IdempotencyItem = {
    ...idempotencyKey(ctx, key),
    _type: IDEMPOTENCY_TYPE,
    idempotency_key: key,
    status: 'in_progress',
    fingerprint: print,
    route_id: routeId,
    request_id: ctx.requestId,
    created_at: now.toISOString(),
    claimed_at: now.getTime(),
    ttl: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS,
  };
  for (let attempt = 0; ; attempt++) {
    let existing: IdempotencyItem | undefined;
    try {
      await db.send(
        new PutCommand({
          TableName: tableName(),
          Item: item,
          ConditionExpression:
            'attribute_not_exists(pk) OR #ttl <= :now OR (#status = :in_progress AND fingerprint = :fp AND claimed_at <= :stale)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#status': 'status' },
          ExpressionAttributeValues: {
            ':now': Math.floor(now.getTime() / 1000),
            ':in_progress': 'in_progress',
            ':fp': print,
            ':stale': now.getTime() - LOCK_TIMEOUT_MS,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { claimed: true, item };
    } catch (error) {
      const failure = translateWriteError(error);
      if (!(failure instanceof ConditionFailed)) throw failure;
      existing = (failure.item as IdempotencyItem | undefined) ?? (await getItem<IdempotencyItem>(idempotencyKey(ctx, key), true));
    }
    // Released (deleted) between the failed put and the read: claim again.
    if (!existing) {
      if (attempt < 2) continue;
      throw keyInProgress();
    }
    if (existing.fingerprint !== print) throw keyReused();
    if (existing.status === 'completed' && existing.response) return { claimed: false, replay: existing };
    if (existing.status === 'committed') return { claimed: false, committed: existing };
    throw keyInProgress();
  }
}

/**
 * Stores the response of the claimed request (or the one rebuilt for it): later identical requests get it again.
 * Only while the record is still that request's, and not completed yet.
 */
export async function completeKey(claim: Pick<IdempotencyItem, 'pk' | 'sk' | 'request_id'>, response: StoredResponse): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: claim.pk, sk: claim.sk },
      UpdateExpression: 'SET #status = :completed, #response = :response',
      ConditionExpression: '#status IN (:in_progress, :committed) AND request_id = :mine',
      ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: {
        ':completed': 'completed', ':response': response, ':in_progress': 'in_progress', ':committed': 'committed', ':mine': claim.request_id,
      },
    }),
  );
}

/**
 * Forgets the claim (the request failed transiently and wrote nothing), so the same key may be retried at once.
 * A committed claim is never released: its effect is written.
 */
export async function releaseKey(claim: IdempotencyItem): Promise<void> {
  await db.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: { pk: claim.pk, sk: claim.sk },
      ConditionExpression: '#status = :in_progress AND request_id = :mine',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':in_progress': 'in_progress', ':mine': claim.request_id },
    }),
  );
}

/**
 * The stored response, sent again with `Idempotent-Replayed: true` and this request's own request id and API headers
 * (a record stored before those headers existed gets them too).
 */
export function replayResponse(item: Pick<IdempotencyItem, 'request_id'>, requestId: string, stored: StoredResponse): HttpResponse {
  return {
    statusCode: stored.status_code,
    headers: { ...stored.headers, ...apiHeaders(requestId), [ORIGINAL_REQUEST_HEADER]: item.request_id, [REPLAYED_HEADER]: 'true' },
    body: stored.body,
  };
}

const toStored = (response: HttpResponse): StoredResponse => {
  const { 'x-request-id': _ignored, ...headers } = response.headers ?? {};
  return { status_code: response.statusCode, headers, body: typeof response.body === 'string' ? response.body : '' };
};

/** Where a request's outcome is written down or released; failures are logged, never turned into the response. */
async function settle(claim: IdempotencyItem, response: HttpResponse | undefined, error?: unknown): Promise<void> {
  try {
    if (response && response.statusCode < 500) {
      await completeKey(claim, toStored(response));
    } else if ((error as Error | undefined)?.name !== 'TimeoutError') {
      // 5xx: transient (503: nothing was written) → the key is free again. A middy timeout leaves the outcome
      // unknown: the claim stays in progress and becomes free after LOCK_TIMEOUT_MS.
      await releaseKey(claim);
    }
  } catch (failure) {
    if (translateWriteError(failure) instanceof ConditionFailed) return; // taken over after the lock timeout
    console.error(JSON.stringify({ level: 'error', message: 'idempotency record not settled', request_id: claim.request_id, error: String(failure) }));
  }
}

export interface IdempotencyInput {
  ctx: Ctx;
  path: unknown;
  query: unknown;
  body: unknown;
}

/**
 * How a route answers again when its effect committed but its answer was lost: the resource as it is now, read from
 * the request (its path) and the items the effect created (`created`, in write order). Same shape as the route's
 * own result. Routes without one answer such a retry with a 409 (`idempotency_key_applied`).
 */
export type Replay<Input = IdempotencyInput> = (input: Input, created: CreatedRef[]) => Promise<unknown>;

/** The last item of `type` the effect created (e.g. the wallet transaction of a revert), as it is now. */
export async function lastCreated<T>(created: CreatedRef[], type: string): Promise<T> {
  const ref = created.filter((c) => c.type === type).at(-1);
  const item = ref && (await getItem<T>({ pk: ref.pk, sk: ref.sk }, true));
  if (!item) throw new Error(`The committed effect created no ${type}`);
  return item;
}

/** The claim each running request holds, for the write path (withClaimOf). */
const effectClaims = new WeakMap<object, EffectClaim>();

/** Runs the domain call of `event` with its idempotency claim visible to its transactions (shared/db/effect-claim.ts). */
export const withClaimOf = <T>(event: object, work: () => T): T => withEffectClaim(effectClaims.get(event), work);

/**
 * The answer to a retry whose first request committed its effect and died before answering: rebuilt by the route's
 * replay and stored on the record (so later retries get the same bytes), sent as a replay of the first request.
 */
async function rebuiltResponse(route: RouteMeta, replay: Replay | undefined, input: IdempotencyInput, record: IdempotencyItem): Promise<HttpResponse> {
  if (!replay) {
    if (input.ctx.clock.now().getTime() - record.claimed_at < LOCK_TIMEOUT_MS) throw keyInProgress();
    throw new Conflict('The request with this Idempotency-Key was applied but its answer was lost; read the resource to see its result.', 'idempotency_key_applied');
  }
  const stored = toStored(json(route.status, await replay(input, record.created ?? []), record.request_id));
  try {
    await completeKey(record, stored);
  } catch (failure) {
    if (!(translateWriteError(failure) instanceof ConditionFailed)) throw failure;
    const settled = await getItem<IdempotencyItem>({ pk: record.pk, sk: record.sk }, true); // the original answered meanwhile
    if (settled?.response) return replayResponse(settled, input.ctx.requestId, settled.response);
  }
  return replayResponse(record, input.ctx.requestId, stored);
}

/**
 * The middy step between validation and the domain call. `before` claims the key or answers from the record
 * (replay, 409, 422); `after` and `onError` (registered before the response and error mapping, so they run after
 * them and see the final response) store the response of the claimed request, or release the claim on a 5xx.
 * Requests that fail before this step (401/403/400/413/415) never touch a key and are not remembered.
 */
export function idempotency<Event extends Pick<APIGatewayProxyEventV2, 'headers'>>(
  route: RouteMeta,
  inputOf: (event: Event) => IdempotencyInput | undefined,
  replay?: Replay,
): middy.MiddlewareObj<Event, APIGatewayProxyResultV2> {
  const claims = new WeakMap<object, IdempotencyItem>();
  return {
    before: async (request) => {
      const key = idempotencyKeyOf(route, request.event.headers);
      const input = inputOf(request.event);
      if (key === undefined || !input) return undefined;
      const print = fingerprint({ method: route.method, routeId: route.id, path: input.path, query: input.query, body: input.body });
      const result = await claimKey(input.ctx, key, print, route.id);
      // Early returns: no domain call.
      if ('replay' in result) return replayResponse(result.replay, input.ctx.requestId, result.replay.response!);
      if ('committed' in result) return rebuiltResponse(route, replay, input, result.committed);
      claims.set(request.event, result.item);
      effectClaims.set(request.event, { pk: result.item.pk, sk: result.item.sk, request_id: result.item.request_id, committed: 0 });
      return undefined;
    },
    after: async (request) => {
      const claim = claims.get(request.event);
      if (claim) await settle(claim, request.response as HttpResponse);
    },
    onError: async (request) => {
      const claim = claims.get(request.event);
      if (claim) await settle(claim, request.response as HttpResponse | undefined, request.error);
    },
  };
}
