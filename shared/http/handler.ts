import middy from '@middy/core';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import type { Ctx } from '../context';
import { onWorkspaceClock } from '../domain/test-clocks/workspace-clock';
import { linkKeyReady } from '../pages/link-key';
import { errorMapping } from './errors';
import { requestLog } from '../observability/request-log';
import { idempotency, withClaimOf, type Replay } from './idempotency';
import { rateLimiter } from './rate-limit';
import { requestCtx, type AuthorizedEvent } from './request-context';
import { eventRequestId } from './request-id';
import { requestParts } from './request-parts';
import { binary, BinaryResponse, json } from './responses';
import type { RouteMeta } from './route-meta';

export type HttpEvent = AuthorizedEvent;

export interface HandlerInput<Body, Query, Path> {
  ctx: Ctx;
  path: Path;
  query: Query;
  body: Body;
  headers: HttpEvent['headers'];
  /** The client's address as API Gateway saw it (`requestContext.http.sourceIp`); absent for an in-process call. */
  sourceIp?: string;
  /**
   * When the core should have its answer (ms since the epoch): the invocation's end less a reserve to send it, so a
   * core doing bounded, resumable work (a batch of writes) can stop and say what is left instead of being cut off.
   * Infinity when the invocation has no time limit (an in-process call).
   */
  answerBy: number;
}

type Core<Body, Query, Path> = (input: HandlerInput<Body, Query, Path>) => Promise<unknown>;

const inputs = new WeakMap<object, HandlerInput<unknown, unknown, unknown>>();

/**
 * The shared stack, in DESIGN.md §4 order: request context and scope (401/403) → the workspace's rate limit (429;
 * shared/http/rate-limit.ts, which also puts the `X-RateLimit-*` headers on the final response) → body parsing (413/415/400)
 * → validation of path, query and body (400) → idempotency (POST/PUT/PATCH with `Idempotency-Key`: replay,
 * 409, 422) → the domain call → JSON response → error mapping.
 * The core receives validated input and returns the resource; its status comes from the route table. A core that
 * returns a `BinaryResponse` (a file) has it sent as it is, base64-encoded; errors are JSON all the same.
 * `replay` rebuilds the result of a request whose effect committed but whose answer was lost (docs/idempotency.md).
 */
export function httpHandler<Body = unknown, Query = Record<string, unknown>, Path = Record<string, string>>(
  route: RouteMeta,
  core: Core<Body, Query, Path>,
  replay?: Replay<HandlerInput<Body, Query, Path>>,
) {
  const contexts = new WeakMap<object, Ctx>();
  const limiter = rateLimiter<HttpEvent>(route, (event) => contexts.get(event));
  const stack = middy<HttpEvent, APIGatewayProxyResultV2>()
    // First, so that it sees the final response (its after and onError run last): one log line per request.
    .use(requestLog(route))
    .use({
      before: async ({ event }) => {
        contexts.set(event, requestCtx(event, route.scope));
        // Invoices and quotes carry signed links to their hosted pages: the key is read once per instance.
        await linkKeyReady();
      },
    })
    .use(limiter.middleware)
    .use({
      before: async ({ event, context }) => {
        const answerBy = answerDeadline(context);
        const parts = requestParts(route, event);
        // Rates count in real time; the request reads the workspace's clock (a test clock's, docs/test-clocks.md),
        // looked up only for a request the limiter let through and whose input is well formed.
        const ctx = await onWorkspaceClock(contexts.get(event)!);
        inputs.set(event, { ctx, ...parts, headers: event.headers, sourceIp: event.requestContext.http?.sourceIp, answerBy });
      },
    })
    .use(idempotency(route, (event) => inputs.get(event), replay as Replay | undefined))
    .use({
      after: (request) => {
        const requestId = eventRequestId(request.event);
        const result: unknown = request.response;
        request.response = result instanceof BinaryResponse ? binary(route.status, result, requestId) : json(route.status, result, requestId);
      },
    })
    .use(errorMapping(route))
    .handler(async (event) => withClaimOf(event, () => core(inputs.get(event) as HandlerInput<Body, Query, Path>)) as Promise<APIGatewayProxyResultV2>);
  return limiter.wrap(stack);
}

/** What an invocation keeps to turn a core's result into its response, of its remaining time: a tenth, at most a second. */
const ANSWER_RESERVE = { share: 0.1, maxMs: 1_000 };

/** `HandlerInput.answerBy` of an invocation (Lambda's context tells its remaining time; an in-process call has none). */
export function answerDeadline(context: { getRemainingTimeInMillis?: () => number } | undefined): number {
  const remaining = context?.getRemainingTimeInMillis?.();
  if (remaining === undefined || !Number.isFinite(remaining)) return Number.POSITIVE_INFINITY;
  return Date.now() + remaining - Math.min(ANSWER_RESERVE.maxMs, remaining * ANSWER_RESERVE.share);
}
