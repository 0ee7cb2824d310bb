/**
 * Who the service is, as an OAuth issuer and protected resource: its base URL (PUBLIC_API_URL; on AWS the API's
 * URL, locally the local server's). Kept apart from service-tokens.ts so that every route's 401 can name it
 * without loading the KMS client.
 */

/** The audience of development tokens (`npm run token`, the one `npm start` prints) and of the tests' tokens. */
export const DEVELOPMENT_AUDIENCE = 'billing-api';

export const serviceIssuer = (): string => {
  const url = process.env.PUBLIC_API_URL;
  if (!url) throw new Error('PUBLIC_API_URL is not set: the service cannot name itself as an issuer');
  return url.replace(/\/+$/, '');
};

/** The audiences (RFC 8707 resources) a token of this service may name: the API, its MCP endpoint, development. */
export const resourceIdentifiers = (): string[] => [serviceIssuer(), `${serviceIssuer()}/mcp`, DEVELOPMENT_AUDIENCE];

