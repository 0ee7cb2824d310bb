/**
 * An OAuth error (RFC 6749 §4.1.2.1 and §5.2, RFC 8707 `invalid_target`). Where it is shown depends on when it
 * happens: a page before the redirect URI is known to be the client's, a redirect to it after, JSON at the token
 * endpoint.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** Before the client and its redirect URI are established: shown to the person, never redirected (RFC 6749 §4.1.2.1). */
export class AuthorizationPageError extends Error {
  constructor(
    readonly title: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'AuthorizationPageError';
  }
}
