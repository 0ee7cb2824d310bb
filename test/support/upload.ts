import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface Upload {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
  /** Body bytes the client had handed to its socket when the response arrived. */
  sentBeforeResponse: number;
  /** Whether the server said `100 Continue` (only asked for with `expectContinue`). */
  continued: boolean;
}

/**
 * POSTs `total` bytes in 64 KiB chunks, as fast as the connection takes them, and stops sending as soon as the
 * response arrives (a client that reads the answer while it uploads). With `expectContinue`, sends
 * `Expect: 100-continue` and only starts the body once the server asks for it.
 */
export function upload(
  baseUrl: string,
  path: string,
  options: { headers?: Record<string, string>; total: number; chunked?: boolean; expectContinue?: boolean },
): Promise<Upload> {
  const headers = {
    'content-type': 'application/json',
    ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(options.total) }),
    ...(options.expectContinue && { expect: '100-continue' }),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, baseUrl), { method: 'POST', headers, agent: false });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    let answered = false;
    let continued = false;
    const pump = () => {
      while (!answered && sent < options.total) {
        const size = Math.min(chunk.length, options.total - sent);
        sent += size;
        if (!request.write(chunk.subarray(0, size))) return void request.once('drain', pump);
      }
      if (!answered) request.end();
    };
    request.on('continue', () => {
      continued = true;
      pump();
    });
    request.on('response', (response) => {
      answered = true;
      const sentBeforeResponse = sent;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        request.destroy();
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: response.statusCode!, headers: response.headers, body: text ? JSON.parse(text) : undefined, sentBeforeResponse, continued });
      });
      response.on('error', reject);
    });
    // Once answered, the server closing the connection under a body it refused to read is expected.
    request.on('error', (error) => !answered && reject(error));
    if (options.expectContinue) request.flushHeaders();
    else pump();
  });
}

/** Counts what the server read off each connection: a socket's `bytesRead` once it has closed. */
export function serverReads(server: Server) {
  const sockets: Socket[] = [];
  const onConnection = (socket: Socket) => sockets.push(socket);
  server.on('connection', onConnection);
  return {
    /** Bytes the server read from the last connection, once the server has closed it (fails after 5 s open). */
    async lastClosed(): Promise<number> {
      const socket = sockets.at(-1)!;
      if (!socket.destroyed) {
        await new Promise((done, fail) => {
          const timer = setTimeout(() => fail(new Error(`the server kept the connection open (${socket.bytesRead} bytes read)`)), 5_000);
          socket.once('close', () => done(clearTimeout(timer)));
        });
      }
      return socket.bytesRead;
    },
    stop: () => server.off('connection', onConnection),
  };
}
