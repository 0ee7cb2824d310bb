import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

export const json = (statusCode: number, body: unknown, requestId: string, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...headers },
  body: JSON.stringify(body),
});
