import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

type Answer = number | 'hang';

/**
 * A webhook receiver on 127.0.0.1 for tests: answers each request with the next scripted status
 * (`'hang'` never answers), then with `fallback`; or, given a function, with what it answers for the request
 * and what was received before it. Records what it received.
 */
export async function startReceiver(
  script: Answer[] | ((request: Received, before: Received[]) => Answer) = [],
  fallback: Answer = 200,
) {
  const received: Received[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const entry = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const answer = typeof script === 'function' ? script(entry, [...received]) : (script.shift() ?? fallback);
      received.push(entry);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((done) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
