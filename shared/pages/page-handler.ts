import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clock } from '../clock';
import { makeCtx, type Ctx } from '../context';
import { DomainError, NotFound } from '../errors';
import { headerValue } from '../http/request-parts';
import type { BinaryResponse } from '../http/responses';
import { html, publicHandler, redirect, type PublicInput, type WebResponse } from '../http/public-handler';
import type { RouteMeta } from '../http/route-meta';
import { languageFromHeader, translator, type Language } from '../i18n/catalog';
import { formatterFor } from '../i18n/format';
import { checkFormToken, sameOriginPost } from './csrf';
import { pageHeaders } from './html';
import { linkKeyReady } from './link-key';
import { LinkRefused, verifyLink, type LinkClaims, type LinkKind } from './links';
import { messagePage } from './views/message';
import type { Notice } from './notices';
import type { ViewContext } from './views/parts';

/** A page answer: the markup with the pages' security headers (CSP, frame-ancestors, no-store…); `stripe`: Stripe.js allowed. */
export const page = (status: number, markup: string, options: { stripe?: boolean } = {}): WebResponse => html(status, markup, pageHeaders(options));

export const viewContext = (language: Language, timeZone = 'UTC'): ViewContext => ({ t: translator(language), f: formatterFor(language, timeZone) });

/** A page opened through a verified link: the workspace is the link's, never the request's. */
export interface Opened {
  ctx: Ctx;
  claims: LinkClaims;
  /** The link's token (CSRF tokens are bound to it). */
  token: string;
  /** The page's own path, for its forms and links. */
  path: string;
}

const refusalPage = (event: APIGatewayProxyEventV2, kind: 'invalid' | 'expired' | 'unavailable'): WebResponse => {
  const language = languageFromHeader(headerValue(event.headers, 'accept-language'));
  const t = translator(language);
  const status = kind === 'expired' ? 410 : 404;
  return page(status, messagePage(language, t(`link.${kind}_title`), t(`link.${kind}_body`)));
};

/** The path of the page a link opens: the request's path up to and including the token. */
function pagePath(event: APIGatewayProxyEventV2, token: string): string {
  const raw = event.rawPath ?? '';
  const at = raw.indexOf(token);
  return at >= 0 ? raw.slice(0, at + token.length) : raw;
}

/**
 * A hosted page's handler (docs/hosted-pages.md): a `publicHandler` whose core runs only for a genuine, unexpired
 * link of `kind` (else a 404 or 410 page, in the reader's Accept-Language), with `ctx` in the link's workspace. A
 * document or session the link no longer opens (revoked, deleted) is the same 404 page.
 */
export function pageHandler<Body = Record<string, string>, Query = Record<string, unknown>>(
  route: RouteMeta,
  kind: LinkKind,
  core: (opened: Opened, input: PublicInput<Body, Query>) => Promise<WebResponse | BinaryResponse>,
) {
  return publicHandler<Body, Query>(route, async (input) => {
    await linkKeyReady();
    const token = input.path.token!; // its length and shape checked by publicHandler, against the route's path schema
    let claims: LinkClaims;
    try {
      claims = verifyLink(token, kind, clock.now());
    } catch (error) {
      if (error instanceof LinkRefused) return refusalPage(input.event, error.reason);
      throw error;
    }
    const opened: Opened = { ctx: makeCtx(claims.workspaceId, input.requestId), claims, token, path: pagePath(input.event, token) };
    try {
      return await core(opened, input);
    } catch (error) {
      if (error instanceof NotFound) return refusalPage(input.event, 'unavailable');
      throw error;
    }
  });
}

/** A form post's checks: same origin, and a CSRF token of this link and form. Its nonce names the submission. */
export function formNonce(opened: Opened, input: { headers: PublicInput<unknown, unknown>['headers']; body: unknown }, purpose: string): string | undefined {
  if (!sameOriginPost(input.headers)) return undefined;
  return checkFormToken(opened.token, purpose, (input.body as { csrf?: unknown } | undefined)?.csrf);
}

/** After a form: back to the page (303, so a reload repeats the GET, not the POST), with what happened. */
export const backTo = (path: string, notice?: Notice): WebResponse => redirect(notice ? `${path}?notice=${notice}` : path, 303);

export const isRefusal = (error: unknown): error is DomainError => error instanceof DomainError && error.status < 500;
