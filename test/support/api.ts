import { randomUUID } from 'node:crypto';
import { generateKeys, signToken, type LocalKeys, type TokenOptions } from '../../lib/local/jwt';
import { startLocalApi, type LocalApi } from '../../lib/local/server';
import { useRateLimits, type RateLimitSettings } from '../../shared/http/rate-limit-settings';
import { startEventPipeline, type EventPipeline } from './event-pipeline';
import { assertResponseContract } from './response-contract';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Client {
  workspace: string;
  token: string;
  get<T = any>(path: string): Promise<Reply<T>>;
  post<T = any>(path: string, body?: unknown): Promise<Reply<T>>;
  put<T = any>(path: string, body?: unknown): Promise<Reply<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<Reply<T>>;
  delete<T = any>(path: string): Promise<Reply<T>>;
}

export interface TestApi {
  url: string;
  keys: LocalKeys;
  /** A client of a fresh workspace (or the named one) holding a valid token (every scope unless `scope` says). */
  client(options?: Partial<TokenOptions>): Promise<Client>;
  raw(method: string, path: string, init?: { headers?: Record<string, string>; body?: string }): Promise<Reply>;
  /** The stream → events → deliveries pipeline over this API's workspaces (started with `events: true`). */
  events: EventPipeline;
  close(): Promise<void>;
}

export const newWorkspace = (): string => `ws_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

/**
 * The real local server (route table, JWT checks, real handlers) on a free port, against the test DynamoDB; every
 * answer is checked against its route's documented response schema (test/support/response-contract.ts); with
 * `events`, also the stream poller and delivery queue of `npm start`, limited to this API's workspaces.
 * Rate limits are off (suites send many requests at once on one workspace) unless `rateLimits` is given: then they
 * are those, for the whole process, until `close`. Credentials are cached as on AWS (shared/identity/resolution-cache.ts),
 * unless `credentialCaching` is false: then every request resolves its credential anew. `devRoutes`: also those of
 * `npm start` (lib/local/dev-routes.ts). `dashboard`: also the operators' dashboard at /dashboard (docs/dashboard.md).
 * `invocationMs`: each handler's time (its Lambda context's), 30 s unless given.
 */
export async function startTestApi(
  options: { events?: boolean; rateLimits?: RateLimitSettings; credentialCaching?: boolean; devRoutes?: boolean; dashboard?: boolean; invocationMs?: number } = {},
): Promise<TestApi> {
  const keys = await generateKeys();
  const restoreRateLimits = useRateLimits(options.rateLimits ?? null);
  const api: LocalApi = await startLocalApi({ keys, port: 0, credentialCaching: options.credentialCaching, devRoutes: options.devRoutes, dashboard: options.dashboard, invocationMs: options.invocationMs });
  const workspaces = new Set<string>();
  const events = options.events ? await startEventPipeline(workspaces) : undefined;

  async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
    const response = await fetch(api.url + path, { method, headers: init.headers, body: init.body });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    assertResponseContract(method, path, response.status, response.headers.get('content-type'), body);
    return { status: response.status, body, headers: response.headers };
  }

  async function client(options: Partial<TokenOptions> = {}): Promise<Client> {
    const workspace = options.workspace ?? newWorkspace();
    workspaces.add(workspace);
    const token = await signToken(keys, { scope: 'read write admin', ...options, workspace });
    const call = (method: string) => (path: string, body?: unknown) =>
      raw(method, path, {
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    return { workspace, token, get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), delete: call('DELETE') };
  }

  const noPipeline = () => {
    throw new Error('start the test API with { events: true }');
  };
  return {
    url: api.url,
    keys,
    client,
    raw,
    events: events ?? { settle: noPipeline, deliverDue: noPipeline, queue: undefined as never, stop: async () => undefined },
    close: async () => {
      await events?.stop();
      await api.close();
      restoreRateLimits();
    },
  };
}

/** Creates the invoicing entity most tests need before customers. */
export async function withEntity(client: Client, body: Record<string, unknown> = {}) {
  const reply = await client.post('/v1/invoicing-entities', { name: 'Acme SAS', country: 'FR', currency: 'EUR', ...body });
  if (reply.status !== 201) throw new Error(`entity creation failed: ${JSON.stringify(reply.body)}`);
  return reply.body;
}
