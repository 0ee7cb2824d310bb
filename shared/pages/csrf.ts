import { createHmac, randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { headerValue } from '../http/request-parts';
import { linkKey } from './link-key';
import { pagesBaseUrl } from './links';
import { macMatches } from './mac';

/**
 * CSRF protection of every form of the pages (docs/hosted-pages.md, "Forms"). A page carries no ambient credential
 * (no cookie: the link is the credential), and on top of that:
 * - each form holds a token `<nonce>.<mac>`, the MAC binding the nonce to the link and to the form's purpose, so a
 *   token is good for that form of that link only;
 * - a POST the browser marks as cross-site (`Sec-Fetch-Site`), or whose `Origin` is not the pages' origin, is refused.
 * The nonce also names the submission: a double click or a reload sends the same one, and the action runs once
 * (it is the idempotency key of the page's effect).
 */
const NONCE_BYTES = 16;

const mac = (linkToken: string, purpose: string, nonce: string): Buffer =>
  createHmac('sha256', linkKey()).update(`csrf|${purpose}|${linkToken}|${nonce}`).digest().subarray(0, 16);

export function formToken(linkToken: string, purpose: string): string {
  const nonce = randomBytes(NONCE_BYTES).toString('base64url');
  return `${nonce}.${mac(linkToken, purpose, nonce).toString('base64url')}`;
}

const SHAPE = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/;

/** The nonce of a genuine token for this link and form; undefined when the token is missing, forged or another form's. */
export function checkFormToken(linkToken: string, purpose: string, token: unknown): string | undefined {
  if (typeof token !== 'string' || !SHAPE.test(token)) return undefined;
  const [nonce, given] = token.split('.') as [string, string];
  return macMatches(given, mac(linkToken, purpose, nonce)) ? nonce : undefined;
}

/** False when the browser says the POST comes from another site. */
export function sameOriginPost(headers: APIGatewayProxyEventV2['headers']): boolean {
  const site = headerValue(headers, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = headerValue(headers, 'origin');
  if (origin === undefined || origin === 'null') return site !== undefined || origin === undefined;
  return origin === new URL(pagesBaseUrl()).origin;
}
