import { startAuthorization, rememberUpstream, type AuthorizeQuery } from '../../shared/domain/oauth/authorization-request';
import { bindingCookie } from '../../shared/domain/oauth/browser';
import { AuthorizationPageError } from '../../shared/domain/oauth/errors';
import { developmentSignInPage, pageHeaders } from '../../shared/domain/oauth/pages';
import { signInMethod } from '../../shared/domain/oauth/settings';
import { upstreamSignInUrl } from '../../shared/domain/oauth/upstream';
import { clock } from '../../shared/clock';
import { html, publicHandler, redirect } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthAuthorize.js';
import { asPage } from './page';

/** Checks the request, stores it, and sends the person to sign in (the identity provider, or the local development page). */
export const handler = publicHandler<unknown, AuthorizeQuery>(route, ({ query }) =>
  asPage(async () => {
    const outcome = await startAuthorization(query, clock.now().getTime());
    if (outcome.kind === 'refused') return redirect(outcome.location);
    const method = signInMethod();
    if (method.kind === 'none') throw new AuthorizationPageError('Sign-in unavailable', 'This service has no identity provider configured.', 503);
    const cookie = { 'set-cookie': bindingCookie(outcome.requestId, outcome.browserSecret) };
    if (method.kind === 'development') {
      return html(200, developmentSignInPage(outcome.requestId, outcome.request), { ...pageHeaders(), ...cookie });
    }
    const upstream = await upstreamSignInUrl(method.upstream, outcome.requestId);
    await rememberUpstream(outcome.requestId, upstream.nonce, upstream.verifier);
    return redirect(upstream.url, 302, cookie);
  }),
);
