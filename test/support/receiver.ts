import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 for tests: answers each request with the next scripted status
 * (`'hang'` never answers), then with `fallback`; records what it received.
 */
export async function startReceiver(script: Array<number | 'hang'> = [], fallback: number | 'hang' = 200) {
  const received: Received[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = script.shift() ?? fallback;
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
