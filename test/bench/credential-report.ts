import type { CredentialResults } from './credential-scenarios';
import type { TargetCheck } from './targets';

/** The identity issue's target: GET customer with an API key over the same with a JWT, p50, locally. */
export const API_KEY_OVER_JWT = 1.1;

const ms = (value: number) => `${value.toFixed(2)} ms`;

export function credentialTargets(c: CredentialResults): TargetCheck[] {
  const ratio = c.withApiKey.summary.p50 / c.withJwt.summary.p50;
  return [
    {
      target: `GET /v1/customers/{id} with an API key: p50 ≤ ${API_KEY_OVER_JWT}× the same with a JWT`,
      measured: `${ratio.toFixed(2)}× (${ms(c.withApiKey.summary.p50)} vs ${ms(c.withJwt.summary.p50)})`,
      pass: ratio <= API_KEY_OVER_JWT,
    },
  ];
}

export function credentialReport(c: CredentialResults): string {
  return [
    '## Credentials: API keys and JWTs',
    '',
    'GET /v1/customers/{id} through the local server with either credential, interleaved in rotating order. The local server caches credentials as AWS does (API Gateway\'s cache of the authorizer\'s answers, 5 s, and the authorizer\'s own), so both rows are mostly the route itself; a cache miss costs what the last two rows show.',
    '',
    '| | p50 | p95 | DynamoDB calls per request |',
    '|---|---|---|---|',
    `| GET with a JWT | ${ms(c.withJwt.summary.p50)} | ${ms(c.withJwt.summary.p95)} | ${c.withJwt.callsPerRequest.toFixed(2)} |`,
    `| GET with an API key | ${ms(c.withApiKey.summary.p50)} | ${ms(c.withApiKey.summary.p95)} | ${c.withApiKey.callsPerRequest.toFixed(2)} |`,
    `| cache miss, JWT: the RS256 verification | ${ms(c.jwtMiss.summary.p50)} | ${ms(c.jwtMiss.summary.p95)} | ${c.jwtMiss.callsPerRequest.toFixed(2)} |`,
    `| cache miss, API key: its resolution | ${ms(c.apiKeyMiss.route.p50)} | ${ms(c.apiKeyMiss.route.p95)} | ${c.apiKeyMiss.callsPerRequest.toFixed(2)} |`,
    `| floor: the key's GetItem alone | ${ms(c.apiKeyMiss.floor.p50)} | ${ms(c.apiKeyMiss.floor.p95)} | 1.00 |`,
    '',
    'On AWS the authorizer runs only on a miss of API Gateway\'s cache (one Lambda invocation, answered from its own cache, or one GetItem for a key, none for a JWT); a hit adds neither.',
  ].join('\n');
}
