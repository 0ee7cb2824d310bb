import { exactListMeta, listOf, type RouteDefinition } from '../route-definition';
import { idPath } from '../../shared/schemas/common';
import { apiKeyCreationBody, apiKeyResource, createdApiKeyResource, jwksResource } from '../../shared/schemas/api-keys';

/** Identity (docs/identity.md): API keys (every route needs the `admin` scope) and the service's signing keys. */
export const identityRoutes: RouteDefinition[] = [
  {
    id: 'createApiKey', method: 'POST', path: '/v1/api-keys', handler: 'functions/identity/create-api-key.ts', scope: 'admin', tag: 'API keys',
    summary: 'Create an API key',
    description: 'Creates a key of the workspace with the scopes given (default `read write`). The answer is the only time the key is shown: the table keeps its SHA-256 hash only.',
    request: { body: apiKeyCreationBody }, response: { status: 201, schema: createdApiKeyResource },
  },
  {
    id: 'listApiKeys', method: 'GET', path: '/v1/api-keys', handler: 'functions/identity/list-api-keys.ts', scope: 'admin', tag: 'API keys',
    summary: 'List API keys', description: 'Every key of the workspace, revoked ones included, newest first; never the key itself.',
    request: {}, response: { status: 200, schema: listOf(apiKeyResource, exactListMeta) },
  },
  {
    id: 'revokeApiKey', method: 'DELETE', path: '/v1/api-keys/{id}', handler: 'functions/identity/revoke-api-key.ts', scope: 'admin', tag: 'API keys',
    summary: 'Revoke an API key',
    description: 'The key stops working at once for new resolutions, and everywhere within 9 seconds, cached answers included. Revoking twice changes nothing.',
    request: { path: idPath }, response: { status: 200, schema: apiKeyResource },
  },
  {
    id: 'getJwks', method: 'GET', path: '/.well-known/jwks.json', handler: 'functions/identity/jwks.ts', scope: 'public', tag: 'OAuth',
    summary: 'The service\'s token signing keys (JWK Set)',
    description: 'The public keys the service signs its access tokens with (RFC 7517), for anyone verifying them. Public: no token needed.',
    request: {}, response: { status: 200, schema: jwksResource },
  },
];
