import type { IncomingMessage } from 'node:http';
import { routes } from '../../functions/routes';
import { apiGatewayEvent, lambdaContext } from '../../lib/local/api-gateway-event';
import type { LocalKeys } from '../../lib/local/jwt';
import { loadHandlers } from '../../lib/local/server';
import { resolveCredential } from '../../shared/identity/credentials';
import { useLocalSigningKeys } from '../../shared/identity/service-tokens';

/**
 * Calls a route's handler in-process with the event the local server would build for it: the handler's own
 * cost without the parts API Gateway does on AWS (HTTP, the authorizer). Same module instance as the server's.
 */
export async function directInvoker(routeId: string, keys: LocalKeys, token: string) {
  const route = routes.find((r) => r.id === routeId);
  if (!route) throw new Error(`no route ${routeId}`);
  const handler = (await loadHandlers([route])).get(routeId)!;
  useLocalSigningKeys(keys);
  const resolution = await resolveCredential(`Bearer ${token}`);
  if (resolution.kind !== 'valid') throw new Error('the bench token does not verify');
  const claims = resolution.context;

  return async (path: string, pathParameters: Record<string, string>, expected: number, body?: unknown): Promise<void> => {
    const headers: Record<string, string> = { host: '127.0.0.1', authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // The only parts of a request apiGatewayEvent reads.
    const request = { method: route.method, httpVersion: '1.1', headers, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    const payload = Buffer.from(body === undefined ? '' : JSON.stringify(body));
    const event = apiGatewayEvent(request, new URL(path, 'http://127.0.0.1'), route, pathParameters, claims, payload);
    const result = await handler(event, lambdaContext(route.id, event.requestContext.requestId));
    const status = typeof result === 'object' && result !== null && 'statusCode' in result ? result.statusCode : 200;
    if (status !== expected) throw new Error(`${route.id} invoked directly: expected ${expected}, got ${status}: ${JSON.stringify(result)}`);
  };
}
