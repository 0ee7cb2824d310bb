import { AuthorizationPageError } from '../../shared/domain/oauth/errors';
import { errorPage, pageHeaders } from '../../shared/domain/oauth/pages';
import { html } from '../../shared/http/public-handler';

/** The browser routes' problems before the client's redirect URI is established: a page, never a redirect. */
export async function asPage<T>(work: () => Promise<T>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthorizationPageError) return html(error.status, errorPage(error.title, error.message), pageHeaders());
    throw error;
  }
}
