import { registerClient, type ClientMetadata } from '../../shared/domain/oauth-clients/register';
import { httpHandler } from '../../shared/http/handler';
import { oauthRateLimited } from '../../shared/http/oauth-rate-limit';
import { requestCtx, type AuthorizedEvent } from '../../shared/http/request-context';
import { route } from '../../shared/schemas/generated/registerOAuthClient.js';

/** The registering client is the bearer token's workspace; none when the token is not valid (the handler answers 401). */
function workspaceOf(event: AuthorizedEvent): string | undefined {
  try {
    return requestCtx(event, route.scope).workspaceId;
  } catch {
    return undefined;
  }
}

/** Rate limited per address and per workspace (docs/rate-limits.md), besides the workspace's write budget. */
export const handler = oauthRateLimited(route, 'register', workspaceOf, httpHandler<ClientMetadata>(route, ({ ctx, body }) => registerClient(ctx, body)));
