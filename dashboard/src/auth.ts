import type { DashboardConfig } from './config';

/**
 * Sign-in: the service's own OAuth 2.1 authorization code flow with PKCE, as a public client (docs/oauth.md,
 * docs/dashboard.md). The access token lives in this module's memory only. The refresh token is kept in the tab's
 * sessionStorage so that a reload signs in again silently (it rotates at every use, and a stolen, replayed one
 * revokes the whole grant); a new tab or a deep link without it goes through /oauth/authorize again, which asks the
 * person only what the upstream provider's session does not already answer.
 */
const FLOW_KEY = 'dashboard.oauth.flow';
const REFRESH_KEY = 'dashboard.oauth.refresh';
export const CALLBACK_PATH = '/dashboard/callback';
const SCOPE = 'read write admin';

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
}

let config: DashboardConfig;
let accessToken: string | undefined;
let expiresAt = 0;
let scopes: string[] = [];
let refreshing: Promise<void> | undefined;

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const redirectUri = () => `${location.origin}${CALLBACK_PATH}`;

/** The API's base URL (its MCP endpoint is `<apiUrl>/mcp`). */
export const apiUrl = (): string => config.apiUrl;

/** The scopes granted: `write` shows the actions that change data, `admin` the API keys. */
export const can = (scope: 'read' | 'write' | 'admin'): boolean => scopes.includes(scope);

/** Sends the browser to the authorization endpoint; it comes back to /dashboard/callback. */
export async function signIn(returnTo: string = location.pathname + location.search): Promise<never> {
  const verifier = randomString();
  const state = randomString();
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  sessionStorage.setItem(FLOW_KEY, JSON.stringify({ verifier, state, returnTo: returnTo.startsWith(CALLBACK_PATH) ? '/dashboard/' : returnTo }));
  const query = new URLSearchParams({
    response_type: 'code', client_id: config.clientId, redirect_uri: redirectUri(), code_challenge: challenge, code_challenge_method: 'S256',
    state, resource: config.apiUrl, scope: SCOPE,
  });
  location.assign(`${config.apiUrl}/oauth/authorize?${query}`);
  return new Promise<never>(() => undefined);
}

/** Token endpoint calls go to the dashboard's own origin (on AWS CloudFront forwards /oauth/token to the API). */
async function tokenRequest(form: Record<string, string>): Promise<void> {
  const response = await fetch('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  const body = (await response.json()) as TokenAnswer & { error?: string; error_description?: string };
  if (!response.ok) throw new Error(body.error_description ?? body.error ?? `token endpoint: ${response.status}`);
  accessToken = body.access_token;
  // Refreshed a minute early: a request never leaves with a token about to expire.
  expiresAt = Date.now() + (body.expires_in - 60) * 1000;
  scopes = body.scope.split(' ');
  sessionStorage.setItem(REFRESH_KEY, body.refresh_token);
}

function refresh(): Promise<void> {
  const token = sessionStorage.getItem(REFRESH_KEY);
  if (!token) return Promise.reject(new Error('not signed in'));
  // One rotation at a time: two concurrent refreshes with one token would count as reuse and revoke the grant.
  refreshing ??= tokenRequest({ grant_type: 'refresh_token', refresh_token: token, client_id: config.clientId }).finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

/**
 * At start: finishes a sign-in coming back to /dashboard/callback, else refreshes silently from the tab's refresh
 * token, else starts a sign-in. Returns the path to show, or an error message when the sign-in came back refused.
 */
export async function startSession(loaded: DashboardConfig): Promise<{ path: string } | { error: string }> {
  config = loaded;
  if (location.pathname === CALLBACK_PATH) {
    const params = new URLSearchParams(location.search);
    const flow = JSON.parse(sessionStorage.getItem(FLOW_KEY) ?? 'null') as { verifier: string; state: string; returnTo: string } | null;
    sessionStorage.removeItem(FLOW_KEY);
    if (params.get('error')) return { error: params.get('error_description') ?? params.get('error')! };
    if (!flow || params.get('state') !== flow.state) return { error: 'The sign-in answer does not match the sign-in this tab started. Sign in again.' };
    if (params.get('iss') !== config.apiUrl) return { error: 'The sign-in answer comes from another issuer.' };
    await tokenRequest({
      grant_type: 'authorization_code', code: params.get('code') ?? '', client_id: config.clientId, redirect_uri: redirectUri(),
      code_verifier: flow.verifier, resource: config.apiUrl,
    });
    return { path: flow.returnTo };
  }
  try {
    await refresh();
  } catch {
    sessionStorage.removeItem(REFRESH_KEY);
    return signIn();
  }
  return { path: location.pathname + location.search };
}

/** A valid access token (refreshed by rotation when close to expiry). */
export async function currentToken(): Promise<string> {
  if (!accessToken || Date.now() >= expiresAt) await refresh();
  return accessToken!;
}

/** Signs out: the refresh token's grant is revoked, nothing is kept in the tab. */
export async function signOut(): Promise<void> {
  const token = sessionStorage.getItem(REFRESH_KEY);
  sessionStorage.removeItem(REFRESH_KEY);
  accessToken = undefined;
  if (token) await fetch('/oauth/revoke', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, client_id: config.clientId }) });
}
