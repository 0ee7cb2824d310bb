import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { serviceIssuer } from '../../identity/issuer';
import { digest } from './secrets';
import { LIFETIMES } from './settings';

/**
 * The cookie binding an authorization request to the browser that started it. One cookie per request (its name
 * derives from the request id), so two flows in one browser do not overwrite each other. HttpOnly; SameSite=Lax so
 * that it comes back on the top-level redirect from the identity provider; Secure whenever the service is https.
 */
const cookieName = (requestId: string) => `oauth_${digest(requestId).slice(0, 16).replace(/[-_]/g, 'x')}`;

export function bindingCookie(requestId: string, browserSecret: string): string {
  const secure = serviceIssuer().startsWith('https://') ? '; Secure' : '';
  return `${cookieName(requestId)}=${browserSecret}; Path=/oauth; Max-Age=${LIFETIMES.authorizationRequestSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The browser secret of a request from the request's cookies (API Gateway v2 puts them in `cookies`, node:http in the header). */
export function browserSecretOf(event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>, requestId: string | undefined): string | undefined {
  if (!requestId) return undefined;
  const pairs = event.cookies ?? (event.headers?.cookie ?? '').split(';');
  const wanted = cookieName(requestId);
  for (const pair of pairs) {
    const [name, ...value] = pair.trim().split('=');
    if (name === wanted) return value.join('=');
  }
  return undefined;
}
