/**
 * The authorization server's lifetimes and its sign-in configuration (docs/oauth.md). Read from the environment at
 * each use, so that tests can point a running server at their own upstream provider.
 */
export const LIFETIMES = {
  /** A pending authorization request (sign-in and consent must happen within it). */
  authorizationRequestSeconds: 10 * 60,
  /** RFC 6749 §4.1.2 recommends at most 10 minutes; OAuth 2.1 and the MCP specification: short. */
  codeSeconds: 60,
  accessTokenSeconds: 15 * 60,
  /** A refresh token is good for 30 days after it was issued; each use rotates it (a new one, 30 days again). */
  refreshTokenSeconds: 30 * 24 * 3600,
  /** A Client ID Metadata Document is kept this long unless its Cache-Control says less (or more, up to the max). */
  clientMetadataDefaultSeconds: 5 * 60,
  clientMetadataMaxSeconds: 24 * 3600,
} as const;

export interface UpstreamSettings {
  /** The OpenID provider's issuer identifier (its discovery document is read from it). */
  issuer: string;
  clientId: string;
  /** The client secret itself (local runs and tests) … */
  clientSecret?: string;
  /** … or the ARN of the Secrets Manager secret holding it (AWS). */
  clientSecretArn?: string;
  /** Scopes asked of the upstream provider. */
  scope: string;
  /** The ID token claim listing the workspaces the person may grant access to (a string or an array of strings). */
  workspaceClaim: string;
}

export type SignInMethod = { kind: 'upstream'; upstream: UpstreamSettings } | { kind: 'development' } | { kind: 'none' };

/** How people sign in: the configured upstream OpenID provider, else the local development sign-in when enabled. */
export function signInMethod(env: NodeJS.ProcessEnv = process.env): SignInMethod {
  const issuer = env.OAUTH_UPSTREAM_ISSUER;
  if (issuer) {
    return {
      kind: 'upstream',
      upstream: {
        issuer,
        clientId: env.OAUTH_UPSTREAM_CLIENT_ID ?? '',
        clientSecret: env.OAUTH_UPSTREAM_CLIENT_SECRET,
        clientSecretArn: env.OAUTH_UPSTREAM_CLIENT_SECRET_ARN,
        scope: env.OAUTH_UPSTREAM_SCOPE ?? 'openid email profile',
        workspaceClaim: env.OAUTH_WORKSPACE_CLAIM ?? 'billing_workspaces',
      },
    };
  }
  // Only the local runtime (bin/local.ts) sets this; the CDK stack never does.
  if (env.OAUTH_DEV_SIGN_IN === 'true') return { kind: 'development' };
  return { kind: 'none' };
}
