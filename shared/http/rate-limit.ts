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
import { TokenReservations, type TokenRequest, type Verdict } from './token-reservation';

/**
 * Per-workspace rate limits (docs/rate-limits.md). Every authenticated request counts against its workspace's
 * budget of reads (GET) or writes (any other method) for the current fixed window, kept in one counter item per
 * (workspace, kind, window) of the table, so the budget holds across every Lambda instance. An instance does not
 * write the counter per request: it reserves blocks of tokens from it (one UpdateItem `ADD n size` per block,
 * sized to its traffic: one token per request for a quiet workspace) and admits requests from them in memory
 * (./token-reservation.ts). Over the budget → 429 `rate_limited` with `Retry-After`; every counted response carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`. A failing limiter lets the request through
 * (fail open) and logs one JSON line.
 */

export type RequestKind = 'read' | 'write';

export const requestKind = (method: string): RequestKind => (method.toUpperCase() === 'GET' ? 'read' : 'write');

export interface RateLimitState {
  limit: number;
  /**
   * Requests of this kind the window has had so far as far as this instance knows, this one included: exact with
   * one instance; with several, blocks others reserved since this instance's last one are not seen yet, and tokens
   * they hold unused count as had (docs/rate-limits.md). Over `limit` when the request is refused.
   */
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

const limitOf = (kind: RequestKind, settings: RateLimitSettings): number => (kind === 'read' ? settings.reads : settings.writes);

/** A window's counter item, and what its TTL needs. */
export interface Counter {
  key: Key;
  end: Date;
  windowSeconds: number;
}

/**
 * Reserves `count` tokens of a window: one UpdateItem `ADD n count` on its counter item, which it creates with its
 * TTL if need be. Returns the counter's new value: the block is the token numbers `n - count + 1 … n`.
 */
export async function reserveTokens({ key, end, windowSeconds }: Counter, count: number): Promise<number> {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #type = :type, #ttl = :ttl ADD #n :count',
      ExpressionAttributeNames: { '#type': '_type', '#ttl': 'ttl', '#n': 'n' },
      // Kept one window past its end; DynamoDB's TTL deletes it some time later. No one reads an ended window.
      ExpressionAttributeValues: { ':type': RATE_LIMIT_TYPE, ':ttl': Math.floor(end.getTime() / 1000) + windowSeconds, ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.n);
}

/** This instance's blocks (module scope: one Lambda instance, or the whole local server). */
const reservations = new TokenReservations<Counter>(reserveTokens);

/** The reservations' view of one request of `kind` at `ctx.clock.now()`. */
function tokenRequest(ctx: Ctx, kind: RequestKind, settings: RateLimitSettings): TokenRequest<Counter> {
  const now = ctx.clock.now();
  const { start, end } = windowOf(now, settings.windowSeconds);
  const key = rateLimitKey(ctx, kind, start);
  return { rate: key.pk, counter: `${key.pk}|${key.sk}`, key: { key, end, windowSeconds: settings.windowSeconds }, limit: limitOf(kind, settings), now: now.getTime(), endsAt: end.getTime() };
}

/** The state the headers and the 429 are built from. */
function stateOf(request: TokenRequest<Counter>, verdict: Verdict): RateLimitState {
  const count = verdict.admitted ? request.limit - verdict.remaining : verdict.counted;
  return { limit: request.limit, count, resetAt: request.key.end, resetInMs: request.endsAt - request.now };
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

/** The verdict of a request `takeNow` could not give; never throws: a failing limiter lets the request through and logs one JSON line. */
async function reserveOrPass(ctx: Ctx, kind: RequestKind, request: TokenRequest<Counter>): Promise<RateLimitState | undefined> {
  try {
    return stateOf(request, await reservations.reserveAndTake(request));
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
 * verified claims, so only authenticated requests count). A request this instance can answer from memory (a token
 * of its block, or a window it knows handed out) gets its verdict at once, and a refused one never runs. Otherwise a
 * block is reserved: a write waits for it and a 429 never reaches the domain; a read's reservation runs beside the
 * rest of the stack (GET handlers only read, so the read is merely discarded when it turns out to be over the
 * budget) and `wrap` turns the response into the 429. `wrap` also puts the headers on every counted response:
 * success, error and idempotent replay (which ends the middy stack early) alike.
 */
export function rateLimiter<E extends Event>(route: Pick<RouteMeta, 'method' | 'errorFormat'>, ctxOf: (event: E) => Ctx | undefined) {
  const kind = requestKind(route.method);
  const verdicts = new WeakMap<object, Promise<RateLimitState | undefined>>();

  const middleware: middy.MiddlewareObj<E, APIGatewayProxyResultV2> = {
    before: async ({ event }) => {
      const settings = rateLimitSettings();
      const ctx = ctxOf(event);
      if (!settings || !ctx) return;
      const request = tokenRequest(ctx, kind, settings);
      const known = reservations.takeNow(request);
      if (known) {
        const state = stateOf(request, known);
        verdicts.set(event, Promise.resolve(state));
        if (isLimited(state)) throw tooManyRequests(kind, state);
        return;
      }
      const verdict = reserveOrPass(ctx, kind, request);
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
