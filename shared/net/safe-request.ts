import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DestinationRefused, guardedLookup, urlProblem, type DestinationPolicy } from './public-address';

export interface SafeRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  policy: DestinationPolicy;
  /** Response bytes kept (the rest is read and dropped). Default 64 KiB. */
  maxResponseBytes?: number;
  /** A PEM certificate authority to trust besides the system's: tests serving https themselves, never set on AWS. */
  ca?: string;
}

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export class RequestTimeout extends Error {
  readonly code = 'ETIMEDOUT';
}

/**
 * One HTTP request to a destination outside the service (shared/net/public-address.ts): the URL must pass the
 * policy, the socket connects only to an address checked at this very moment (no second DNS resolution), and
 * redirects are never followed (a 3xx is returned as is). Rejects with DestinationRefused, RequestTimeout (the whole
 * exchange, not just the connection) or the network error.
 */
export function safeRequest(url: string, options: SafeRequest): Promise<SafeResponse> {
  const problem = urlProblem(url, options.policy);
  if (problem) return Promise.reject(new DestinationRefused(`url ${problem}`));
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const limit = options.maxResponseBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      { method: options.method, headers: options.headers, lookup: guardedLookup(options.policy), agent: false, ...(options.ca && { ca: options.ca }) },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < limit) chunks.push(chunk.subarray(0, limit - kept));
          kept += chunk.length;
        });
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
        });
        response.on('error', fail);
      },
    );
    const timer = setTimeout(() => req.destroy(new RequestTimeout(`no complete answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      reject(error);
    }
    req.on('error', fail);
    req.end(options.body);
  });
}
