import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type middy from '@middy/core';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import type { Ctx } from '../context';
import { db, tableName } from '../db/client';
import { collectionKey, type Key } from '../db/keys';
import { RateLimited } from '../errors';
import { errorResponse } from './errors';
import type { HttpResponse } from './responses';
import type { RouteMeta } from './route-meta';
import { RATE_LIMIT_PARTITION, RATE_LIMIT_TYPE, rateLimitSettings, type RateLimitSettings } from './rate-limit-settings';

/**
 * Per-workspace rate limits (docs/rate-limits.md). Every authenticated request counts against its workspace's
 * budget of reads (GET) or writes (any other method) for the current fixed window, in one counter item per
 * (workspace, kind, window) of the table: one UpdateItem `ADD n 1` per request, so the budget holds across every
 * Lambda instance. Over the budget → 429 `rate_limited` with `Retry-After`; every counted response carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`. A failing limiter lets the request through
 * (fail open) and logs one JSON line.
 */

export type RequestKind = 'read' | 'write';

export const requestKind = (method: string): RequestKind => (method.toUpperCase() === 'GET' ? 'read' : 'write');

export interface RateLimitState {
  limit: number;
  /** Requests of this kind counted in the window so far, this one included. */
  count: number;
  /** When the window ends and the budget is whole again. */
  resetAt: Date;
  /** Milliseconds from this request to `resetAt`. */
  resetInMs: number;
}

export const isLimited = (state: RateLimitState): boolean => state.count > state.limit;

/** The fixed window holding `now`: windows are aligned on the epoch, so every instance agrees on them. */
export function windowOf(now: Date, windowSeconds: number): { start: Date; end: Date } {
  const length = windowSeconds * 1000;
  const start = Math.floor(now.getTime() / length) * length;
  return { start: new Date(start), end: new Date(start + length) };
}

export const rateLimitKey = (ctx: Ctx, kind: RequestKind, windowStart: Date): Key =>
  collectionKey(ctx, `${RATE_LIMIT_PARTITION}#${kind}`, windowStart.toISOString());

/**
 * Windows this instance has seen used up, by counter key: until they end, a request over the budget is answered
 * from here, without a DynamoDB write (a client hammering past its limit costs the table nothing more).
 */
const exhausted = new Map<string, { count: number; end: number }>();
const EXHAUSTED_MAX = 1_000;

function rememberExhausted(id: string, count: number, end: number, now: number): void {
  if (exhausted.size >= EXHAUSTED_MAX) {
    for (const [key, entry] of exhausted) if (entry.end <= now) exhausted.delete(key);
    if (exhausted.size >= EXHAUSTED_MAX) exhausted.clear();
  }
  exhausted.set(id, { count, end });
}

/** Where the workspace stands, for a request of `kind` at `ctx.clock.now()`, when this instance already knows. */
function knownExhausted(ctx: Ctx, kind: RequestKind, settings: RateLimitSettings): RateLimitState | undefined {
  const now = ctx.clock.now();
  const { start, end } = windowOf(now, settings.windowSeconds);
  const key = rateLimitKey(ctx, kind, start);
  const seen = exhausted.get(`${key.pk}|${key.sk}`);
  const limit = limitOf(kind, settings);
  if (!seen || seen.count < limit) return undefined;
  return { limit, count: seen.count + 1, resetAt: end, resetInMs: end.getTime() - now.getTime() };
}

const limitOf = (kind: RequestKind, settings: RateLimitSettings): number => (kind === 'read' ? settings.reads : settings.writes);

/** Counts this request: one UpdateItem on the window's counter item, which it creates with its TTL if need be. */
export async function countRequest(ctx: Ctx, kind: RequestKind, settings: RateLimitSettings): Promise<RateLimitState> {
  const now = ctx.clock.now();
  const { start, end } = windowOf(now, settings.windowSeconds);
  const key = rateLimitKey(ctx, kind, start);
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #type = :type, #ttl = :ttl ADD #n :one',
      ExpressionAttributeNames: { '#type': '_type', '#ttl': 'ttl', '#n': 'n' },
      // Kept one window past its end; DynamoDB's TTL deletes it some time later. No one reads an ended window.
      ExpressionAttributeValues: { ':type': RATE_LIMIT_TYPE, ':ttl': Math.floor(end.getTime() / 1000) + settings.windowSeconds, ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number(Attributes?.n);
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`rate-limit counter returned ${String(Attributes?.n)}`);
  const limit = limitOf(kind, settings);
  if (count >= limit) rememberExhausted(`${key.pk}|${key.sk}`, count, end.getTime(), now.getTime());
  return { limit, count, resetAt: end, resetInMs: end.getTime() - now.getTime() };
}

/** Seconds to wait before the budget is whole again: at least 1, as `Retry-After` takes whole seconds. */
export const retryAfterSeconds = (state: RateLimitState): number => Math.max(1, Math.ceil(state.resetInMs / 1000));

/** The headers of a counted response; `Retry-After` only on a 429. `X-RateLimit-Reset` is an ISO 8601 UTC time. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(Math.max(0, state.limit - state.count)),
    'x-ratelimit-reset': state.resetAt.toISOString(),
    ...(isLimited(state) && { 'retry-after': String(retryAfterSeconds(state)) }),
  };
}

export const tooManyRequests = (kind: RequestKind, state: RateLimitState): RateLimited =>
  new RateLimited(
    `Too many ${kind === 'read' ? 'read (GET)' : 'write'} requests for this workspace: at most ${state.limit} per window. ` +
      `Retry after ${retryAfterSeconds(state)} s (${state.resetAt.toISOString()}).`,
  );

/** Counts the request; never throws: a failing limiter lets the request through and logs one JSON line. */
async function countOrPass(ctx: Ctx, kind: RequestKind, settings: RateLimitSettings): Promise<RateLimitState | undefined> {
  try {
    return await countRequest(ctx, kind, settings);
  } catch (error) {
    console.error(
      JSON.stringify({
        level: 'error',
        message: 'rate limiter failed; request let through',
        request_id: ctx.requestId,
        workspace_id: ctx.workspaceId,
        kind,
        error: String(error),
      }),
    );
    return undefined;
  }
}

const isStructured = (response: APIGatewayProxyResultV2): response is HttpResponse =>
  typeof response === 'object' && response !== null && 'statusCode' in response;

type Event = { requestContext: { requestId: string } };
type Handler<E extends Event> = (event: E, context: never) => Promise<APIGatewayProxyResultV2>;

/**
 * The limiter of one route. `middleware` goes right after the request context (the workspace comes from the
 * verified claims, so only authenticated requests count): a write waits for its count and a 429 never reaches the
 * domain; a read's count runs beside the rest of the stack (GET handlers only read, so the read is merely discarded
 * when it turns out to be over the budget) and `wrap` turns the response into the 429. Once an instance has seen a
 * window used up, reads and writes alike are refused before anything runs. `wrap` also puts the headers on every
 * counted response: success, error and idempotent replay (which ends the middy stack early) alike.
 */
export function rateLimiter<E extends Event>(route: Pick<RouteMeta, 'method' | 'errorFormat'>, ctxOf: (event: E) => Ctx | undefined) {
  const kind = requestKind(route.method);
  const verdicts = new WeakMap<object, Promise<RateLimitState | undefined>>();

  const middleware: middy.MiddlewareObj<E, APIGatewayProxyResultV2> = {
    before: async ({ event }) => {
      const settings = rateLimitSettings();
      const ctx = ctxOf(event);
      if (!settings || !ctx) return;
      const known = knownExhausted(ctx, kind, settings);
      if (known) {
        verdicts.set(event, Promise.resolve(known));
        throw tooManyRequests(kind, known);
      }
      const verdict = countOrPass(ctx, kind, settings);
      verdicts.set(event, verdict);
      if (kind === 'write') {
        const state = await verdict;
        if (state && isLimited(state)) throw tooManyRequests(kind, state);
      }
    },
  };

  const finish = async (event: E, response: APIGatewayProxyResultV2): Promise<APIGatewayProxyResultV2> => {
    const state = await verdicts.get(event);
    if (!state || !isStructured(response)) return response;
    const final = isLimited(state) && response.statusCode !== 429
      ? errorResponse(route, tooManyRequests(kind, state), event.requestContext.requestId)
      : response;
    return { ...final, headers: { ...final.headers, ...rateLimitHeaders(state) } };
  };

  const wrap = <H extends Handler<E>>(handler: H) =>
    async (event: E, context: Parameters<H>[1]): Promise<APIGatewayProxyResultV2> => finish(event, await handler(event, context));

  return { middleware, wrap };
}
