import type { RouteDefinition } from '../../functions/routes';
import { idPath } from '../../shared/schemas/common';
import { emailResource } from '../../shared/schemas/emails';

/**
 * Routes that exist only under `npm start` (bin/local.ts passes `devRoutes: true` to the local server): never in the
 * route table, so never in the stack, the OpenAPI document or docs/api.md. Authenticated as every other route.
 */
export const devRoutes: RouteDefinition[] = [
  {
    id: 'simulateEmailBounce', method: 'POST', path: '/dev/emails/{id}/bounce', handler: 'lib/local/simulate-bounce.ts',
    scope: 'write', tag: 'Development', summary: 'Simulate a permanent bounce of a sent email, as SES would report it (docs/emails.md)',
    request: { path: idPath }, response: { status: 200, schema: emailResource },
  },
];
