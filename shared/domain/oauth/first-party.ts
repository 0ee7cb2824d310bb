import type { OAuthClient } from './clients';

/**
 * The operators' dashboard (docs/dashboard.md): the one first-party client, known to the server by configuration
 * rather than registration. The stack sets its redirect URI from the CloudFront distribution it creates
 * (lib/operator-dashboard.ts); `npm start` sets it to its own `/dashboard/callback`. Unlike every third-party client
 * it may be granted `admin` (API keys, the payment provider connection), and only when the person ticks it at consent.
 */
export const DASHBOARD_CLIENT_ID = 'billing-dashboard';
export const ADMIN_SCOPE = 'admin';

/** The dashboard client, or undefined where no redirect URI is configured (it then does not exist). */
export function firstPartyClient(env: NodeJS.ProcessEnv = process.env): OAuthClient | undefined {
  const redirectUris = (env.OAUTH_DASHBOARD_REDIRECT_URIS ?? '').split(/\s+/).filter(Boolean);
  if (redirectUris.length === 0) return undefined;
  return { clientId: DASHBOARD_CLIENT_ID, kind: 'first-party', name: 'Billing dashboard', redirectUris };
}

/** The scopes a client may ever hold: the OAuth scopes, plus `admin` for the first-party dashboard only. */
export const mayHoldAdmin = (client: { kind?: OAuthClient['kind'] }): boolean => client.kind === 'first-party';
