import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApi, type TestApi } from './api';
import { startUpstreamProvider } from './upstream-provider';

/** Sets environment variables until the returned function restores them. */
export function withEnv(values: Record<string, string | undefined>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (next: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(next)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(values);
  return () => apply(previous);
}

/** A client's static host for its Client ID Metadata Documents: `serve(path, document)` publishes one. */
export async function startMetadataHost() {
  const documents = new Map<string, { body: string; status: number }>();
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    fetches += 1;
    const document = documents.get(req.url ?? '');
    res.writeHead(document?.status ?? 404, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
    res.end(document?.body ?? '{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    fetches: () => fetches,
    /** Publishes `document` at `path`; its client_id defaults to its own URL. Returns the URL. */
    serve(path: string, document: Record<string, unknown>, status = 200): string {
      const url = `${origin}${path}`;
      documents.set(path, { body: JSON.stringify({ client_id: url, ...document }), status });
      return url;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** POSTs a form to the token (or revocation) endpoint, through the response-contract checks of the test API. */
export const postForm = (api: TestApi, path: string, form: Record<string, string | undefined>) =>
  api.raw('POST', path, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined)).toString(),
  });

/**
 * What an OAuth suite signing in at a real OpenID provider starts with: the test API, the provider, a host for
 * Client ID Metadata Documents, and their environment (`env` adds to it); `close` ends them all and restores it.
 */
export async function startOAuthServers(env: Record<string, string | undefined> = {}) {
  const api = await startTestApi();
  const upstream = await startUpstreamProvider(api.url);
  const metadataHost = await startMetadataHost();
  const restoreEnv = withEnv({ ...upstream.env, OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: 'true', OAUTH_DEV_SIGN_IN: undefined, ...env });
  const close = async () => {
    restoreEnv();
    await metadataHost.close();
    await upstream.close();
    await api.close();
  };
  return { api, upstream, metadataHost, close };
}
