import { createLocalJWKSet, createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { DEVELOPMENT_AUDIENCE, resourceIdentifiers, serviceIssuer } from './issuer';
import { serviceJwks, signsLocally } from './service-tokens';

/** The issuer of development tokens (`npm run token`, `npm start`'s token), signed with the local key set. */
export const DEVELOPMENT_ISSUER = 'urn:billing-api:local';

export interface TrustedIssuer {
  issuer: string;
  audiences: string[];
  keys: JWTVerifyGetKey;
}

let remote: { url: string; keys: JWTVerifyGetKey } | undefined;
/** The service's key set, built once per signing key (its public JWK object), not on every resolution. */
let own: { jwk: object; keys: JWTVerifyGetKey } | undefined;

async function ownKeys(): Promise<JWTVerifyGetKey> {
  const jwks = await serviceJwks();
  const jwk = jwks.keys[0]!;
  if (own?.jwk !== jwk) own = { jwk, keys: createLocalJWKSet(jwks) };
  return own.keys;
}

/**
 * Whose JWTs the API accepts: always the service's own (iss = its base URL, signed by its key); locally also the
 * development issuer; and, when the operator configures one (EXTERNAL_JWT_ISSUER, EXTERNAL_JWT_AUDIENCE, optional
 * EXTERNAL_JWT_JWKS_URL), an external identity provider whose tokens carry `workspace_id` and `scope` claims.
 */
export async function trustedIssuers(): Promise<TrustedIssuer[]> {
  const keys = await ownKeys();
  const issuers: TrustedIssuer[] = [{ issuer: serviceIssuer(), audiences: resourceIdentifiers(), keys }];
  if (signsLocally()) issuers.push({ issuer: DEVELOPMENT_ISSUER, audiences: [DEVELOPMENT_AUDIENCE], keys });
  const external = process.env.EXTERNAL_JWT_ISSUER;
  if (external) {
    const url = process.env.EXTERNAL_JWT_JWKS_URL || `${external.replace(/\/+$/, '')}/.well-known/jwks.json`;
    if (remote?.url !== url) remote = { url, keys: createRemoteJWKSet(new URL(url)) }; // caches and refreshes the set
    const audiences = (process.env.EXTERNAL_JWT_AUDIENCE ?? '').split(',').map((a) => a.trim()).filter(Boolean);
    issuers.push({ issuer: external, audiences, keys: remote.keys });
  }
  return issuers;
}
