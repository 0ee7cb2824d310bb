import { browserSecretOf } from '../../shared/domain/oauth/browser';
import { decide, type ConsentForm } from '../../shared/domain/oauth/consent';
import { clock } from '../../shared/clock';
import { publicHandler, redirect } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthConsent.js';
import { asPage } from './page';

/** Allow or Deny: back to the client with a code, or with error=access_denied. */
export const handler = publicHandler<ConsentForm>(route, ({ body, event }) =>
  asPage(async () => redirect(await decide(body, browserSecretOf(event, body.request), clock.now().getTime()), 303)),
);
