import type { Schema } from './common';

/**
 * The authorization server's requests and documents. Parameters are checked by the domain, not by these schemas, so
 * that every problem is answered the OAuth way (a page, a redirect with `error=`, or RFC 6749 JSON) rather than as
 * the API's 400; the schemas only bound sizes and let unknown parameters through (RFC 6749 §3.1: ignored).
 */
const parameters = (names: string[], maxLength = 4096): Schema => ({
  type: 'object',
  additionalProperties: true,
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string', maxLength }])),
});

export const authorizeQuery = parameters(['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'resource', 'scope']);
export const callbackQuery = parameters(['code', 'state', 'iss', 'error', 'error_description']);
export const signInBody = parameters(['request', 'csrf', 'subject', 'workspaces']);
export const consentBody = parameters(['request', 'csrf', 'workspace', 'decision', 'grant_admin']);
export const tokenBody = parameters(['grant_type', 'code', 'redirect_uri', 'client_id', 'code_verifier', 'refresh_token', 'resource', 'scope']);
export const revokeBody = parameters(['token', 'token_type_hint', 'client_id']);
export const resourcePath: Schema = { type: 'object', additionalProperties: false, required: ['resource'], properties: { resource: { type: 'string', maxLength: 100 } } };

const strings = { type: 'array', items: { type: 'string' } };

export const authorizationServerMetadataResource: Schema = {
  type: 'object',
  additionalProperties: true,
  required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'response_types_supported', 'code_challenge_methods_supported'],
  properties: {
    issuer: { type: 'string' }, authorization_endpoint: { type: 'string' }, token_endpoint: { type: 'string' },
    registration_endpoint: { type: 'string' }, revocation_endpoint: { type: 'string' }, jwks_uri: { type: 'string' },
    scopes_supported: strings, response_types_supported: strings, response_modes_supported: strings, grant_types_supported: strings,
    code_challenge_methods_supported: strings, token_endpoint_auth_methods_supported: strings, revocation_endpoint_auth_methods_supported: strings,
    authorization_response_iss_parameter_supported: { type: 'boolean' }, client_id_metadata_document_supported: { type: 'boolean' },
  },
};

export const protectedResourceMetadataResource: Schema = {
  type: 'object',
  additionalProperties: true,
  required: ['resource', 'authorization_servers'],
  properties: {
    resource: { type: 'string' }, authorization_servers: strings, scopes_supported: strings, bearer_methods_supported: strings, resource_name: { type: 'string' },
  },
};

export const tokenResource: Schema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
  properties: {
    access_token: { type: 'string' }, token_type: { type: 'string', enum: ['Bearer'] }, expires_in: { type: 'integer' },
    refresh_token: { type: 'string' }, scope: { type: 'string' },
  },
};

/** A page or a redirect (browser routes): documented as HTML. */
export const pageResource: Schema = { type: 'string', contentMediaType: 'text/html' };
export const emptyResource: Schema = { type: 'object', properties: {} };
