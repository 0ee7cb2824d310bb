import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { routes, type RouteDefinition } from '../../functions/routes';
import { openApiDocument } from '../openapi';
import { apiGatewayEvent, lambdaContext } from './api-gateway-event';
import { claimsAsApiGateway, tokenVerifier, type LocalKeys } from './jwt';
import { createRouter } from './router';

type Handler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => Promise<APIGatewayProxyResultV2>;

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
 * The whole API on one node:http server: the route table dispatches, JWTs are verified as the API Gateway
 * authorizer would, and the real handler modules receive real API Gateway v2 events.
 */
export async function startLocalApi(options: { keys: LocalKeys; port?: number; host?: string }): Promise<LocalApi> {
  const handlers = await loadHandlers();
  const route = createRouter(routes);
  const verify = tokenVerifier(options.keys);
  let baseUrl = '';

  const server = createServer((request, response) => {
    serve(request, response).catch((error) => {
      console.error(error);
      send(response, 500, { message: 'Internal server error.', code: 'internal_error', request_id: randomUUID() });
    });
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', baseUrl);
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/health') return send(response, 200, { status: 'ok' });
    if (method === 'GET' && url.pathname === '/openapi.json') return send(response, 200, openApiDocument(baseUrl));

    const match = route(method, url.pathname);
    if (match.kind === 'not-found') return send(response, 404, gatewayError('route_not_found', `No route for ${method} ${url.pathname}.`));
    if (match.kind === 'malformed-path') return send(response, 400, gatewayError('malformed_path', `The path segment '${match.segment}' is not valid percent-encoded UTF-8.`));
    if (match.kind === 'method-not-allowed') {
      return send(response, 405, gatewayError('method_not_allowed', `${method} is not allowed on ${url.pathname}.`), { allow: match.allow.join(', ') });
    }
    const body = await readBody(request);
    if (body === undefined) return send(response, 413, gatewayError('payload_too_large', 'The request body is too large.'));
    const claims = await verify(request.headers.authorization);
    if (!claims) return send(response, 401, gatewayError('unauthorized', 'A valid bearer token is required.'), { 'www-authenticate': 'Bearer' });

    const event = apiGatewayEvent(request, url, match.route, match.pathParameters, claimsAsApiGateway(claims), body);
    const handler = handlers.get(match.route.id)!;
    const result = await handler(event, lambdaContext(match.route.id, event.requestContext.requestId));
    writeLambdaResult(response, result);
  }

  await new Promise<void>((done) => server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', done));
  const address = server.address() as AddressInfo;
  baseUrl = `http://${options.host ?? '127.0.0.1'}:${address.port}`;
  return {
    server,
    url: baseUrl,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const gatewayError = (code: string, message: string) => ({ message, code, request_id: randomUUID() });

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Reads the body, or undefined past API Gateway's limit. A request that announces no body is not read at all. */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return Promise.resolve(Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > GATEWAY_MAX_BODY ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Payload 2.0 responses: a structured result, or any other value, which API Gateway sends as JSON with 200. */
function writeLambdaResult(response: ServerResponse, result: APIGatewayProxyResultV2): void {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) {
    const body = result.body ?? '';
    response.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>) });
    response.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
    return;
  }
  send(response, 200, result);
}
