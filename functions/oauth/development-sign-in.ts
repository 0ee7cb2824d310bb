import { pendingRequest, recordSignIn } from '../../shared/domain/oauth/authorization-request';
import { browserSecretOf } from '../../shared/domain/oauth/browser';
import { AuthorizationPageError } from '../../shared/domain/oauth/errors';
import { membershipsOf } from '../../shared/domain/oauth/membership';
import { consentPage, pageHeaders } from '../../shared/domain/oauth/pages';
import { sameSecret } from '../../shared/domain/oauth/secrets';
import { signInMethod } from '../../shared/domain/oauth/settings';
import { clock } from '../../shared/clock';
import { html, publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthDevelopmentSignIn.js';
import { asPage } from './page';

interface SignInForm {
  request?: string;
  csrf?: string;
  subject?: string;
  workspaces?: string;
}

/** The local development sign-in (`npm start` only): the person is whoever they say, member of the workspaces they name. */
export const handler = publicHandler<SignInForm>(route, ({ body, event }) =>
  asPage(async () => {
    if (signInMethod().kind !== 'development') throw new AuthorizationPageError('Not found', 'The development sign-in is not enabled here.', 404);
    const now = clock.now().getTime();
    const request = await pendingRequest(body.request, browserSecretOf(event, body.request), now);
    if (!sameSecret(body.csrf, request.csrf)) throw new AuthorizationPageError('Invalid form', 'The form is not the one this page showed (CSRF check failed).', 403);
    const label = body.subject?.trim() || 'developer@localhost';
    const signedIn = await recordSignIn(body.request!, request, { subject: `dev:${label}`, label, workspaces: membershipsOf(body.workspaces) }, now);
    return html(200, consentPage(body.request!, signedIn), pageHeaders(signedIn.redirect_uri));
  }),
);
