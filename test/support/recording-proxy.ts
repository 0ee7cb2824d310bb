import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of `target` that passes every request and answer through unchanged and keeps a copy of each
 * answer: for tests whose requests are made by another program (curl in the README's walkthroughs), so that every
 * answer can still be checked against its route's documented schema.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const server = createServer((incoming, outgoing) => {
    const upstream = request(new URL(incoming.url ?? '/', target), { method: incoming.method, headers: incoming.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => exchanges.push({ method: incoming.method ?? 'GET', url: incoming.url ?? '/', status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks) }));
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', (error) => outgoing.destroy(error));
    incoming.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}
