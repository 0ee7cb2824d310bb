import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

/**
 * Headers of every API response, errors, files and replays included: its request id, no content sniffing (a JSON
 * error echoing input is never rendered as HTML) and no caching (every response is one workspace's data).
 */
export const apiHeaders = (requestId: string): Record<string, string> => ({
  'x-request-id': requestId,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

export const json = (statusCode: number, body: unknown, requestId: string, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json', ...apiHeaders(requestId), ...headers },
  body: JSON.stringify(body),
});

/** A file as a route's result: the shared stack sends it as it is (base64 for API Gateway), never as JSON. */
export class BinaryResponse {
  constructor(
    readonly body: Uint8Array,
    readonly contentType: string,
    /** Offered to save the file as; characters other than letters, digits, `.`, `_` and `-` become `_`. */
    readonly filename: string,
  ) {}
}

export const binaryResponse = (body: Uint8Array, contentType: string, filename: string): BinaryResponse =>
  new BinaryResponse(body, contentType, filename);

const safeFilename = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_') || 'download';

/** API Gateway HTTP APIs (payload 2.0) decode `isBase64Encoded` bodies themselves: no binary media types to set. */
export const binary = (statusCode: number, file: BinaryResponse, requestId: string): HttpResponse => ({
  statusCode,
  isBase64Encoded: true,
  headers: {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${safeFilename(file.filename)}"`,
    ...apiHeaders(requestId),
  },
  body: Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength).toString('base64'),
});
