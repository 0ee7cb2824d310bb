import { exchange, type TokenForm } from '../../shared/domain/oauth/grants';
import { clock } from '../../shared/clock';
import { oauthRateLimited } from '../../shared/http/oauth-rate-limit';
import { parsePublicBody, publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthToken.js';
import { asOAuthJson } from './token-errors';

/** The client a token request names (form or JSON); none when the body does not parse (the handler answers 400). */
function clientOf(event: Parameters<typeof parsePublicBody>[0]): string | undefined {
  try {
    const clientId = (parsePublicBody(event) as Record<string, unknown>).client_id;
    return typeof clientId === 'string' && clientId !== '' ? clientId : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 6749 §5.1: the tokens, never cached. Rate limited per address and per client (docs/rate-limits.md). */
export const handler = oauthRateLimited(route, 'token', clientOf, publicHandler<TokenForm>(route, ({ body }) => asOAuthJson(() => exchange(body, clock.now().getTime()))));
