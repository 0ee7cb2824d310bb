import { Agent, request } from 'node:http';

/**
 * A minimal JSON client of the local API that fails loudly on an unexpected status. It uses node:http with a
 * keep-alive agent, as a real client would: `fetch` (undici) spends more CPU per request, and in this process
 * that CPU is the server's, which would be billed to the route.
 */
export function apiClient(baseUrl: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(baseUrl);
  return function call<T = unknown>(method: string, path: string, expected: number, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<T>((resolve, reject) => {
      const req = request(
        {
          agent, hostname, port, method, path,
          headers: { authorization: `Bearer ${token}`, ...(payload !== undefined && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== expected) return reject(new Error(`${method} ${path}: expected ${expected}, got ${res.statusCode}: ${text}`));
            resolve((text ? JSON.parse(text) : undefined) as T);
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  };
}

export type ApiCall = ReturnType<typeof apiClient>;
