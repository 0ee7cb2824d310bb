import { OAuthError } from '../../shared/domain/oauth/errors';
import { revoke } from '../../shared/domain/oauth/grants';
import { clock } from '../../shared/clock';
import { publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthRevoke.js';
import { asOAuthJson } from './token-errors';

/** RFC 7009 §2.2: 200 whether or not the token was known. */
export const handler = publicHandler<{ token?: string; client_id?: string }>(route, ({ body }) =>
  asOAuthJson(async () => {
    if (!body.token) throw new OAuthError('invalid_request', 'token is required.');
    await revoke(body.token, body.client_id, clock.now().getTime());
    return {};
  }),
);
