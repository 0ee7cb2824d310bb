import type middy from '@middy/core';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { dynamoCallCount } from '../db/client';
import type { AuthorizedEvent } from '../http/request-context';
import type { RouteMeta } from '../http/route-meta';
import { logger } from './logger';

type Event = Omit<AuthorizedEvent, 'requestContext'> & { requestContext: Partial<AuthorizedEvent['requestContext']> };
const started = new WeakMap<object, { at: number; calls: number }>();

/** The fields of the one line a request logs (docs/operations.md, "Request log"). */
export interface RequestLine {
  request_id: string;
  workspace: string | null;
  route: string;
  method: string;
  status: number;
  latency_ms: number;
  dynamodb_calls: number;
}

/**
 * One JSON line per request, whatever the outcome: registered first, so its `after` and `onError` run last and see
 * the status the client gets. DynamoDB calls are counted on the shared client (shared/db/client.ts): exact in a
 * Lambda, which serves one request at a time; approximate on the local server when requests overlap.
 */
export const requestLog = (route: Pick<RouteMeta, 'id' | 'method'>): middy.MiddlewareObj<Event, APIGatewayProxyResultV2> => {
  const log = (request: middy.Request<Event, APIGatewayProxyResultV2>): void => {
    const start = started.get(request.event);
    const response = request.response as { statusCode?: number } | undefined;
    const authorizer = request.event.requestContext?.authorizer;
    const workspace = (authorizer?.lambda ?? authorizer?.jwt?.claims)?.workspace_id;
    const line: RequestLine = {
      request_id: request.event.requestContext?.requestId ?? 'unknown',
      workspace: typeof workspace === 'string' ? workspace : null,
      route: route.id,
      method: route.method,
      status: response?.statusCode ?? 500,
      latency_ms: start ? Math.round(performance.now() - start.at) : 0,
      dynamodb_calls: start ? dynamoCallCount() - start.calls : 0,
    };
    logger.info('request', { ...line });
  };
  return {
    before: (request) => {
      started.set(request.event, { at: performance.now(), calls: dynamoCallCount() });
    },
    after: log,
    onError: log,
  };
};
