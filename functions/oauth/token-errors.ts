import { OAuthError } from '../../shared/domain/oauth/errors';
import { WebResponse } from '../../shared/http/public-handler';

/** RFC 6749 §5.2: an OAuth error is a 400 with `{error, error_description}`, never cached. */
export async function asOAuthJson<T>(work: () => Promise<T>): Promise<T | WebResponse> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const body = JSON.stringify({ error: error.error, error_description: error.description });
    return new WebResponse(400, body, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
  }
}
