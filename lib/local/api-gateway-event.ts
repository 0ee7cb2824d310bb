import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'aws-lambda';
import type { AuthorizedEvent } from '../../shared/http/request-context';
import type { RouteDefinition } from '../../functions/routes';

/**
 * Builds the event API Gateway (HTTP API, payload 2.0) gives a Lambda: lower-case headers, repeated query keys
 * joined by commas, what the authorizer resolved under requestContext.authorizer.lambda (none on a public route).
 */
export function apiGatewayEvent(
  request: IncomingMessage,
  url: URL,
  route: RouteDefinition,
  pathParameters: Record<string, string>,
  authorizerContext: Record<string, string> | undefined,
  body: Buffer,
  requestId: string = randomUUID(),
): AuthorizedEvent {
  // Null-prototype maps: a header or query parameter named `__proto__` stays a key, as in the JSON event of API Gateway.
  const headers: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const now = new Date();
  const routeKey = `${route.method} ${route.path}`;
  const isText = body.length === 0 || /json|text|xml|urlencoded/i.test(headers['content-type'] ?? '');
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : undefined,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : undefined,
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: !isText,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      ...(authorizerContext && { authorizer: { lambda: authorizerContext } }),
    },
  };
}

/** An invocation's time, locally: API Gateway's 30 s integration limit (a test may give less: `startLocalApi`'s `invocationMs`). */
export const LOCAL_INVOCATION_MS = 30_000;

export function lambdaContext(functionName: string, requestId: string, invocationMs = LOCAL_INVOCATION_MS): Context {
  const deadline = Date.now() + invocationMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
