import { exchange, type TokenForm } from '../../shared/domain/oauth/grants';
import { clock } from '../../shared/clock';
import { publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthToken.js';
import { asOAuthJson } from './token-errors';

/** RFC 6749 §5.1: the tokens, never cached. */
export const handler = publicHandler<TokenForm>(route, ({ body }) => asOAuthJson(() => exchange(body, clock.now().getTime())));
