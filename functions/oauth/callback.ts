import { forgetRequest, pendingRequest, recordSignIn, redirectWith } from '../../shared/domain/oauth/authorization-request';
import { browserSecretOf } from '../../shared/domain/oauth/browser';
import { AuthorizationPageError } from '../../shared/domain/oauth/errors';
import { consentPage, pageHeaders } from '../../shared/domain/oauth/pages';
import { signInMethod } from '../../shared/domain/oauth/settings';
import { signedInPerson } from '../../shared/domain/oauth/upstream';
import { clock } from '../../shared/clock';
import { html, publicHandler, redirect } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthCallback.js';
import { asPage } from './page';

/** The identity provider sends the person back here: the sign-in is completed, then the consent page is shown. */
export const handler = publicHandler<unknown, Record<string, string | undefined>>(route, ({ query, event }) =>
  asPage(async () => {
    const now = clock.now().getTime();
    const requestId = query.state;
    const request = await pendingRequest(requestId, browserSecretOf(event, requestId), now);
    const method = signInMethod();
    if (method.kind !== 'upstream') throw new AuthorizationPageError('Not found', 'No identity provider is configured.', 404);
    if (query.error === 'access_denied') {
      // The person cancelled at the provider: the client learns it the OAuth way, and the request ends.
      await forgetRequest(requestId!);
      return redirect(redirectWith(request.redirect_uri, { error: 'access_denied', error_description: 'The sign-in was cancelled.', state: request.state }));
    }
    const callback = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const person = await signedInPerson(method.upstream, callback, { state: requestId!, nonce: request.upstream_nonce!, verifier: request.upstream_verifier! });
    const signedIn = await recordSignIn(requestId!, request, person, now);
    return html(200, consentPage(requestId!, signedIn), pageHeaders(signedIn.redirect_uri));
  }),
);
