import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { AuthorizedEvent } from '../../shared/http/request-context';
import { routes, type RouteDefinition } from '../../functions/routes';
import { openApiDocument } from '../openapi';
import { apiGatewayEvent, lambdaContext } from './api-gateway-event';
import type { LocalKeys } from './jwt';
import { bearerChallenge, resourcePathOf } from '../../shared/identity/challenge';
import { resolveCredential } from '../../shared/identity/credentials';
import { cachedResolver, gatewayCache } from '../../shared/identity/resolution-cache';
import { useLocalSigningKeys } from '../../shared/identity/service-tokens';
import { createRouter } from './router';
import { devRoutes } from './dev-routes';
import { dashboardFiles } from './dashboard-files';
import { requestIdOf } from '../../shared/http/request-id';
import { apiHeaders } from '../../shared/http/responses';

type Handler = (event: AuthorizedEvent, context: Context) => Promise<APIGatewayProxyResultV2>;

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** API Gateway's own payload limit; the handlers enforce the API's 1 MiB limit themselves (413). */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;

export interface LocalApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Imports every handler module of the route table once, as each Lambda would at cold start (one at a time:
 * jest's ESM loader mishandles concurrent imports of shared modules). */
export async function loadHandlers(table: RouteDefinition[] = routes): Promise<Map<string, Handler>> {
  const handlers = new Map<string, Handler>();
  for (const route of table) {
    const module = (await import(pathToFileURL(join(projectRoot, route.handler)).href)) as { handler?: Handler };
    if (typeof module.handler !== 'function') throw new Error(`${route.handler} does not export a handler`);
    handlers.set(route.id, module.handler);
  }
  return handlers;
}

/**
 * The whole API on one node:http server: the route table dispatches, credentials (JWTs, API keys) are resolved as
 * the AWS authorizer resolves them (shared/identity, behind the same two caches as on AWS, unless `credentialCaching`
 * is false), and the real handler modules receive real API Gateway v2 events. The token is checked before a byte of
 * the body is read (a client sending `Expect: 100-continue` is not even asked for it), and the body is read no
 * further than API Gateway's limit.
 */
export async function startLocalApi(
  options: { keys: LocalKeys; port?: number; host?: string; credentialCaching?: boolean; devRoutes?: boolean; dashboard?: boolean; invocationMs?: number },
): Promise<LocalApi> {
  // The development routes (lib/local/dev-routes.ts) only when asked: `npm start` asks, the tests that use them too.
  const table = options.devRoutes ? [...routes, ...devRoutes] : routes;
  const handlers = await loadHandlers(table);
  const route = createRouter(table);
  // Tokens are signed and verified with the local key set; credentials are resolved as the AWS authorizer does.
  const restoreSigningKeys = useLocalSigningKeys(options.keys);
  const previousUrl = process.env.PUBLIC_API_URL;
  // As on AWS: API Gateway's cache of the authorizer's answers, in front of the authorizer's own (resolution-cache.ts).
  const resolve = options.credentialCaching === false ? resolveCredential : gatewayCache(cachedResolver());
  let baseUrl = '';
  // The operators' dashboard (docs/dashboard.md) when asked: `npm start` asks, its browser test too.
  const dashboard = options.dashboard ? dashboardFiles() : undefined;
  const previousDashboardRedirect = process.env.OAUTH_DASHBOARD_REDIRECT_URIS;

  const accept = (request: IncomingMessage, response: ServerResponse, expectsContinue: boolean) => {
    const gatewayRequestId = randomUUID();
    const requestId = requestIdOf(request.headers, gatewayRequestId);
    serve(request, response, { gatewayRequestId, requestId, expectsContinue }).catch((error) => {
      console.error(JSON.stringify({ level: 'error', request_id: requestId, error: String(error), stack: (error as Error)?.stack }));
      if (response.headersSent) response.destroy();
      else refuse(request, response, requestId, 500, 'internal_error', 'Internal server error.');
    });
  };
  const server = createServer((request, response) => accept(request, response, false));
  // Without this listener Node answers `100 Continue` itself, before anyone looked at the token.
  server.on('checkContinue', (request, response) => accept(request, response, true));

  async function serve(request: IncomingMessage, response: ServerResponse, ids: RequestIds): Promise<void> {
    const { requestId } = ids;
    const url = new URL(request.url ?? '/', baseUrl);
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/health') return send(response, requestId, 200, { status: 'ok' });
    if (method === 'GET' && url.pathname === '/openapi.json') return send(response, requestId, 200, openApiDocument(baseUrl));
    if (dashboard && method === 'GET' && (url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/'))) return dashboard(url.pathname, baseUrl, response);

    const match = route(method, url.pathname);
    if (match.kind === 'not-found') return refuse(request, response, requestId, 404, 'route_not_found', `No route for ${method} ${url.pathname}.`);
    if (match.kind === 'malformed-path') {
      return refuse(request, response, requestId, 400, 'malformed_path', `The path segment '${match.segment}' is not valid percent-encoded UTF-8.`);
    }
    if (match.kind === 'method-not-allowed') {
      return refuse(request, response, requestId, 405, 'method_not_allowed', `${method} is not allowed on ${url.pathname}.`, {
        allow: match.allow.join(', '),
      });
    }
    let authorizerContext: Record<string, string> | undefined;
    if (match.route.scope !== 'public') {
      const resolution = await resolve(request.headers.authorization);
      if (resolution.kind !== 'valid') {
        return refuse(request, response, requestId, 401, 'unauthorized', 'A valid bearer token is required.', {
          'www-authenticate': bearerChallenge(resolution.kind === 'invalid', resourcePathOf(url.pathname)),
        });
      }
      authorizerContext = resolution.context;
    }
    const tooLarge = () => refuse(request, response, requestId, 413, 'payload_too_large', 'The request body is too large.');
    if (Number(request.headers['content-length'] ?? 0) > GATEWAY_MAX_BODY) return tooLarge(); // announced: never read
    if (ids.expectsContinue) response.writeContinue();
    const body = await readBody(request);
    if (body === undefined) return tooLarge();

    const event = apiGatewayEvent(request, url, match.route, match.pathParameters, authorizerContext, body, ids.gatewayRequestId);
    const handler = handlers.get(match.route.id)!;
    const result = await handler(event, lambdaContext(match.route.id, ids.gatewayRequestId, options.invocationMs));
    writeLambdaResult(response, requestId, result);
  }

  await new Promise<void>((done) => server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', done));
  const address = server.address() as AddressInfo;
  baseUrl = `http://${options.host ?? '127.0.0.1'}:${address.port}`;
  // The issuer identifier and resource of the service (shared/identity/service-tokens.ts) is its base URL.
  process.env.PUBLIC_API_URL = baseUrl;
  // The first-party dashboard client's redirect URI is this server's own (shared/domain/oauth/first-party.ts).
  if (dashboard) process.env.OAUTH_DASHBOARD_REDIRECT_URIS = `${baseUrl}/dashboard/callback`;
  return {
    server,
    url: baseUrl,
    close: () =>
      new Promise((done) =>
        server.close(() => {
          restoreSigningKeys();
          if (previousUrl === undefined) delete process.env.PUBLIC_API_URL;
          else process.env.PUBLIC_API_URL = previousUrl;
          if (dashboard) restoreEnv('OAUTH_DASHBOARD_REDIRECT_URIS', previousDashboardRedirect);
          done();
        }),
      ),
  };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

interface RequestIds {
  /** What API Gateway would call `requestContext.requestId`. */
  gatewayRequestId: string;
  /** What the response carries: the caller's safe `X-Request-Id`, else the gateway's. */
  requestId: string;
  expectsContinue: boolean;
}

/** Every response of the edge carries the API's headers (request id, nosniff, no-store). */
function send(response: ServerResponse, requestId: string, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...apiHeaders(requestId), ...headers });
  response.end(JSON.stringify(body));
}

/** Bodies this small may be drained after a refusal, keeping the connection; larger ones are never read. */
const DRAINABLE_BODY = 64 * 1024;
/** How long a refused connection stays open, unread, after the response (Go's net/http waits 500 ms too). */
const LINGER_MS = 500;

/**
 * An error of the edge itself (404, 405, 401, 413), sent before the body is read. A body still on its way that
 * is large or of unknown length (chunked) is not read at all: the connection closes after the response. A small
 * one is discarded so the connection can be reused.
 */
function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const length = Number(request.headers['content-length'] ?? 0);
  const unread = !request.complete && (request.headers['transfer-encoding'] !== undefined || length > DRAINABLE_BODY);
  if (unread) closeWithoutReading(request);
  send(response, requestId, status, { message, code, request_id: requestId }, { ...headers, ...(unread && { connection: 'close' }) });
}

/**
 * After the response, Node would read the rest of the body to throw it away (`_dump`) and then close the socket at
 * once; closing a socket with unread bytes sends a TCP reset, which can make the client lose the response (it
 * fails with EPIPE instead). So, as Go's net/http does: nothing more is read, the response ends with a FIN, and the
 * socket closes LINGER_MS later, giving the client time to read the answer and stop sending.
 */
function closeWithoutReading(request: IncomingMessage): void {
  const socket = request.socket;
  (request as unknown as { _dump: () => void })._dump = () => undefined;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}

/**
 * Reads the body, or undefined as soon as the bytes read pass API Gateway's limit (reading stops there). A request
 * that announces no body is not read at all.
 */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return Promise.resolve(Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY) return void chunks.push(chunk);
      request.off('data', onData);
      request.pause();
      resolve(undefined);
    };
    request.on('data', onData);
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Payload 2.0 responses: a structured result, or any other value, which API Gateway sends as JSON with 200. */
function writeLambdaResult(response: ServerResponse, requestId: string, result: APIGatewayProxyResultV2): void {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) {
    const body = result.body ?? '';
    response.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>) });
    response.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
    return;
  }
  send(response, requestId, 200, result);
}
