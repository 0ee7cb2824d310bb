import { email, object, text, uri, type Schema } from './common';

export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export const AUTH_METHODS = ['none', 'client_secret_post'] as const;


/**
 * RFC 7591 client metadata (the members of billing-api.md). Redirect URI rules beyond "a URI" live in the domain.
 * Other members are ignored, as RFC 7591 §2 requires of metadata a server does not understand (`jwks_uri`,
 * `application_type`…): they are neither refused, stored nor echoed.
 */
export const clientRegistrationBody = object(
  {
    redirect_uris: { type: 'array', minItems: 1, maxItems: 20, items: uri },
    client_name: text(255),
    client_uri: uri,
    logo_uri: uri,
    scope: text(1000),
    grant_types: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: GRANT_TYPES } },
    response_types: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['code'] } },
    token_endpoint_auth_method: { type: 'string', enum: AUTH_METHODS },
    software_id: text(255),
    software_version: text(255),
    contacts: { type: 'array', maxItems: 20, items: email },
    tos_uri: uri,
    policy_uri: uri,
  },
  ['redirect_uris'],
);
clientRegistrationBody.additionalProperties = true;

const strings = { type: 'array', items: { type: 'string' } };

export const clientRegistrationResource: Schema = {
  type: 'object',
  required: ['client_id', 'client_id_issued_at', 'redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method'],
  properties: {
    client_id: { type: 'string' }, client_id_issued_at: { type: 'integer' }, redirect_uris: strings, grant_types: strings,
    response_types: strings, token_endpoint_auth_method: { type: 'string', enum: AUTH_METHODS }, client_name: { type: 'string' },
    client_uri: { type: 'string' }, logo_uri: { type: 'string' }, scope: { type: 'string' }, software_id: { type: 'string' },
    software_version: { type: 'string' }, contacts: strings, tos_uri: { type: 'string' }, policy_uri: { type: 'string' },
  },
};
