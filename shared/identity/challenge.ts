import { serviceIssuer } from './issuer';

/** Where a client learns how to get a token for this API (RFC 9728): the protected-resource metadata document. */
export const resourceMetadataUrl = (resourcePath = ''): string => `${serviceIssuer()}/.well-known/oauth-protected-resource${resourcePath}`;

/** The resource a request path belongs to (RFC 9728 §3.1): the MCP endpoint is one of its own, the rest is the API. */
export const resourcePathOf = (requestPath: string): string => (requestPath === '/mcp' ? '/mcp' : '');

/** Its `resource_metadata` parameter; none where the service does not know its own URL (a bare handler in a test). */
const metadataParameter = (resourcePath = ''): string[] => (process.env.PUBLIC_API_URL ? [`resource_metadata="${resourceMetadataUrl(resourcePath)}"`] : []);

/**
 * The `WWW-Authenticate` of a 401 (RFC 6750 §3, RFC 9728 §5.1): the resource metadata to discover the authorization
 * server from, the scopes the API knows, and `error="invalid_token"` when a credential was sent but not accepted.
 */
export function bearerChallenge(credentialSent: boolean, resourcePath = ''): string {
  const parts = [...metadataParameter(resourcePath), 'scope="read write"'];
  if (credentialSent) parts.unshift('error="invalid_token"');
  return `Bearer ${parts.join(', ')}`;
}

/** The `WWW-Authenticate` of a 403 for a missing scope (RFC 6750 §3.1), so a client may ask for it (step-up). */
export const insufficientScopeChallenge = (scope: string): string =>
  `Bearer ${['error="insufficient_scope"', `scope="${scope}"`, ...metadataParameter()].join(', ')}`;
