import { registerClient, type ClientMetadata } from '../../shared/domain/oauth-clients/register';
import { httpHandler } from '../../shared/http/handler';
import { assertOAuthRate } from '../../shared/http/oauth-rate-limit';
import { route } from '../../shared/schemas/generated/registerOAuthClient.js';

/** Rate limited per source address and per workspace (docs/rate-limits.md), besides the workspace's write budget. */
export const handler = httpHandler<ClientMetadata>(route, async ({ ctx, body, sourceIp }) => {
  await assertOAuthRate('register', { address: sourceIp, client: ctx.workspaceId }, ctx.requestId);
  return registerClient(ctx, body);
});
