import { redirectUriProblem } from '../oauth-clients/register';
import { safeRequest } from '../../net/safe-request';
import type { DestinationPolicy } from '../../net/public-address';
import { LIFETIMES } from './settings';
import { AuthorizationPageError } from './errors';
import type { OAuthClient } from './clients';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP authorization specification's
 * preferred way for clients that cannot register): the client_id is an https URL, and the JSON document it serves
 * describes the client. Fetched with the SSRF rules of shared/net (public addresses only, no redirects followed).
 */
const MAX_DOCUMENT_BYTES = 16 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

/**
 * Loopback (http or https to 127.0.0.1, localhost) only where the test suite or the local runtime says so; a test
 * may also name a PEM certificate authority to trust (OAUTH_CLIENT_METADATA_TEST_CA), for its own https server.
 */
const policy = (): DestinationPolicy => ({ allowLoopback: process.env.OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK === 'true' });

/** Is this client_id a metadata document URL (rather than a registered `cli_…` id)? */
export const isMetadataDocumentUrl = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

/** The draft's rules on the URL itself (§3): https, a path, no dot segments, fragment or credentials. */
export function metadataUrlProblem(clientId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  const loopbackHttp = url.protocol === 'http:' && policy().allowLoopback;
  if (url.protocol !== 'https:' && !loopbackHttp) return 'must use https';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path';
  if (/(^|\/)\.{1,2}(\/|$)/.test(clientId.replace(/^[a-z]+:\/\/[^/]*/i, ''))) return 'must not contain . or .. path segments';
  if (clientId.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.href !== clientId) return `must be in normal form (${url.href})`;
  return undefined;
}

const cache = new Map<string, { client: OAuthClient; until: number }>();
const MAX_CACHED = 500;

/** The Cache-Control max-age of a response, within the bounds the server accepts (no-store: not kept). */
function cacheSeconds(cacheControl: string | string[] | undefined): number {
  const value = Array.isArray(cacheControl) ? cacheControl.join(',') : (cacheControl ?? '');
  if (/\bno-store\b/i.test(value)) return 0;
  const maxAge = /\bmax-age\s*=\s*(\d+)/i.exec(value);
  const seconds = maxAge ? Number(maxAge[1]) : LIFETIMES.clientMetadataDefaultSeconds;
  return Math.min(seconds, LIFETIMES.clientMetadataMaxSeconds);
}

const refuse = (clientId: string, why: string) =>
  new AuthorizationPageError('Unknown client', `The client metadata document at ${clientId} ${why}.`);

/** Fetches (or takes from the cache), validates and returns the client a metadata document describes. */
export async function clientFromMetadataDocument(clientId: string, now: number): Promise<OAuthClient> {
  const cached = cache.get(clientId);
  if (cached && cached.until > now) return cached.client;
  const problem = metadataUrlProblem(clientId);
  if (problem) throw refuse(clientId, `cannot be used: the URL ${problem}`);

  let response;
  try {
    response = await safeRequest(clientId, {
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: FETCH_TIMEOUT_MS,
      policy: policy(),
      maxResponseBytes: MAX_DOCUMENT_BYTES + 1,
      ...(process.env.OAUTH_CLIENT_METADATA_TEST_CA && { ca: process.env.OAUTH_CLIENT_METADATA_TEST_CA }),
    });
  } catch (error) {
    throw refuse(clientId, `could not be fetched (${(error as Error).message})`);
  }
  if (response.status !== 200) throw refuse(clientId, `answered ${response.status}, not 200`);
  if (response.body.length > MAX_DOCUMENT_BYTES) throw refuse(clientId, `is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw refuse(clientId, 'is not JSON');
  }
  const client = validateDocument(clientId, document);
  const seconds = cacheSeconds(response.headers['cache-control']);
  if (seconds > 0) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(clientId, { client, until: now + seconds * 1000 });
  }
  return client;
}

/** The draft's rules on the document (§4): it names itself, has redirect URIs, and is a public client. */
export function validateDocument(clientId: string, document: Record<string, unknown>): OAuthClient {
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw refuse(clientId, 'is not a JSON object');
  if (document.client_id !== clientId) throw refuse(clientId, `names another client_id (${JSON.stringify(document.client_id)})`);
  if ('client_secret' in document) throw refuse(clientId, 'contains a client_secret');
  const method = document.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw refuse(clientId, `asks for token_endpoint_auth_method ${JSON.stringify(method)}; only none (a public client) is supported`);
  const uris = document.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every((u) => typeof u === 'string')) {
    throw refuse(clientId, 'has no redirect_uris (an array of strings)');
  }
  const bad = (uris as string[]).map(redirectUriProblem).find(Boolean);
  if (bad) throw refuse(clientId, `has an unusable redirect URI: ${bad}`);
  const text = (value: unknown, max: number) => (typeof value === 'string' && value.length <= max ? value : undefined);
  const logo = text(document.logo_uri, 2048);
  return {
    clientId,
    kind: 'metadata-document',
    name: text(document.client_name, 255),
    logoUri: logo?.startsWith('https://') ? logo : undefined,
    redirectUris: uris as string[],
    scope: text(document.scope, 1000),
  };
}
