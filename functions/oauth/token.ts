import { exchange, type TokenForm } from '../../shared/domain/oauth/grants';
import { clock } from '../../shared/clock';
import { assertOAuthRate } from '../../shared/http/oauth-rate-limit';
import { publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthToken.js';
import { asOAuthJson } from './token-errors';

/** RFC 6749 §5.1: the tokens, never cached. Rate limited per source address and per client (docs/rate-limits.md). */
export const handler = publicHandler<TokenForm>(route, async ({ body, event, requestId }) => {
  await assertOAuthRate('token', { address: event.requestContext.http?.sourceIp, client: body.client_id || undefined }, requestId);
  return asOAuthJson(() => exchange(body, clock.now().getTime()));
});
