import type { RouteDefinition } from '../route-definition';
import { clientRegistrationBody, clientRegistrationResource } from '../../shared/schemas/oauth-clients';
import {
  authorizationServerMetadataResource, authorizeQuery, callbackQuery, consentBody, emptyResource, pageResource, protectedResourceMetadataResource,
  resourcePath, revokeBody, signInBody, tokenBody, tokenResource,
} from '../../shared/schemas/oauth';

/**
 * The OAuth 2.1 authorization server (docs/oauth.md). Every route but registration is public: discovery documents,
 * the browser's pages and the token endpoint are reached without a bearer token. The browser routes that are GETs
 * still write (`writes`): they start or continue a sign-in, whose state is kept in the table.
 */
export const oauthRoutes: RouteDefinition[] = [
  {
    id: 'registerOAuthClient', method: 'POST', path: '/oauth/register', handler: 'functions/oauth/register.ts',
    scope: 'any', tag: 'OAuth', summary: 'Register an OAuth client (RFC 7591)', errorFormat: 'oauth',
    request: { body: clientRegistrationBody }, response: { status: 201, schema: clientRegistrationResource },
  },
  {
    id: 'oauthAuthorizationServerMetadata', method: 'GET', path: '/.well-known/oauth-authorization-server', handler: 'functions/oauth/authorization-server-metadata.ts',
    scope: 'public', tag: 'OAuth', summary: 'Authorization server metadata (RFC 8414)',
    request: {}, response: { status: 200, schema: authorizationServerMetadataResource },
  },
  {
    id: 'oauthProtectedResourceMetadata', method: 'GET', path: '/.well-known/oauth-protected-resource', handler: 'functions/oauth/protected-resource-metadata.ts',
    scope: 'public', tag: 'OAuth', summary: 'Protected resource metadata of the API (RFC 9728)',
    request: {}, response: { status: 200, schema: protectedResourceMetadataResource },
  },
  {
    id: 'oauthProtectedResourceMetadataOfPath', method: 'GET', path: '/.well-known/oauth-protected-resource/{resource}',
    handler: 'functions/oauth/protected-resource-metadata-of-path.ts', scope: 'public', tag: 'OAuth',
    summary: 'Protected resource metadata of a resource under the API, such as /mcp (RFC 9728 §3.1)',
    request: { path: resourcePath }, response: { status: 200, schema: protectedResourceMetadataResource },
  },
  {
    id: 'oauthAuthorize', method: 'GET', path: '/oauth/authorize', handler: 'functions/oauth/authorize.ts', scope: 'public', tag: 'OAuth', writes: true,
    summary: 'Authorization endpoint: code flow with PKCE S256 (a browser page or redirect)',
    request: { query: authorizeQuery }, response: { status: 302, schema: pageResource },
  },
  {
    id: 'oauthCallback', method: 'GET', path: '/oauth/callback', handler: 'functions/oauth/callback.ts', scope: 'public', tag: 'OAuth', writes: true,
    summary: 'Return from the identity provider: shows the consent page',
    request: { query: callbackQuery }, response: { status: 200, schema: pageResource },
  },
  {
    id: 'oauthDevelopmentSignIn', method: 'POST', path: '/oauth/sign-in', handler: 'functions/oauth/development-sign-in.ts', scope: 'public', tag: 'OAuth',
    summary: 'Local development sign-in (npm start only): shows the consent page',
    request: { body: signInBody }, response: { status: 200, schema: pageResource },
  },
  {
    id: 'oauthConsent', method: 'POST', path: '/oauth/consent', handler: 'functions/oauth/consent.ts', scope: 'public', tag: 'OAuth',
    summary: 'The person’s answer on the consent page: redirects to the client',
    request: { body: consentBody }, response: { status: 302, schema: pageResource },
  },
  {
    id: 'oauthToken', method: 'POST', path: '/oauth/token', handler: 'functions/oauth/token.ts', scope: 'public', tag: 'OAuth', errorFormat: 'oauth',
    summary: 'Token endpoint: authorization_code and refresh_token (rotated) grants',
    request: { body: tokenBody }, response: { status: 200, schema: tokenResource },
  },
  {
    id: 'oauthRevoke', method: 'POST', path: '/oauth/revoke', handler: 'functions/oauth/revoke.ts', scope: 'public', tag: 'OAuth', errorFormat: 'oauth',
    summary: 'Token revocation (RFC 7009): a refresh token revokes its whole grant',
    request: { body: revokeBody }, response: { status: 200, schema: emptyResource },
  },
];
