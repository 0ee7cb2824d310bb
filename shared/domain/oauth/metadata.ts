import { serviceIssuer } from '../../identity/issuer';
import { OAUTH_SCOPES } from '../../schemas/bounds';
import { oauthResources } from './authorization-request';

/**
 * RFC 8414 authorization server metadata. The issuer identifier is the service's base URL, so the document's URL is
 * `<issuer>/.well-known/oauth-authorization-server`. `client_id_metadata_document_supported` tells MCP clients they
 * may use a metadata document URL as their client_id instead of registering.
 */
export function authorizationServerMetadata() {
  const issuer = serviceIssuer();
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  };
}

/**
 * RFC 9728 protected resource metadata of one resource: the base URL (the REST API) or a path under it (`/mcp`).
 * Undefined for a path that names no resource of this service.
 */
export function protectedResourceMetadata(path = '') {
  const resource = `${serviceIssuer()}${path}`;
  if (!oauthResources().includes(resource)) return undefined;
  return {
    resource,
    authorization_servers: [serviceIssuer()],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Billing API',
  };
}
