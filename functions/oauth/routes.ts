import type { RouteDefinition } from '../route-definition';
import { clientRegistrationBody, clientRegistrationResource } from '../../shared/schemas/oauth-clients';

export const oauthRoutes: RouteDefinition[] = [
  {
    id: 'registerOAuthClient', method: 'POST', path: '/oauth/register', handler: 'functions/oauth/register.ts',
    scope: 'any', tag: 'OAuth', summary: 'Register an OAuth client (RFC 7591)', errorFormat: 'oauth',
    request: { body: clientRegistrationBody }, response: { status: 201, schema: clientRegistrationResource },
  },
];
