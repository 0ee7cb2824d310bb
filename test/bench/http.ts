import { Agent, request } from 'node:http';

/**
 * A minimal JSON client of the local API that fails loudly on an unexpected status. It uses node:http with a
 * keep-alive agent, as a real client would: `fetch` (undici) spends more CPU per request, and in this process
 * that CPU is the server's, which would be billed to the route.
 */
export function apiClient(baseUrl: string, token: string) {
  const send = apiSender(baseUrl, token);
  return async function call<T = unknown>(method: string, path: string, expected: number, body?: unknown): Promise<T> {
    const { status, text } = await send(method, path, body);
    if (status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** The same client, answering the status and body text of whatever comes back. */
export function apiSender(baseUrl: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(baseUrl);
  return function send(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent, hostname, port, method, path,
          headers: { authorization: `Bearer ${token}`, ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  };
}

export type ApiCall = ReturnType<typeof apiClient>;
