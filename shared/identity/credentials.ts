import { decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { clock, type Clock } from '../clock';
import { resolveApiKey } from '../domain/api-keys/resolve';
import { READ_CLAIMS } from '../http/request-context';
import { trustedIssuers } from './trusted-issuers';

/**
 * What the authorizer hands each route (API Gateway's `requestContext.authorizer.lambda`, strings only): the claims
 * the routes read (READ_CLAIMS) of a verified JWT, or those an API key grants, with `credential` saying which.
 * Handlers read `workspace_id` and `scope` from it and never know which credential it was (DESIGN.md §14).
 */
export type AuthorizerContext = Record<string, string> & { credential: 'jwt' | 'api_key' };

export type Resolution = { kind: 'missing' } | { kind: 'invalid' } | { kind: 'valid'; context: AuthorizerContext };

const BEARER = /^Bearer\s+(\S+)$/i;

/** The token of an `Authorization: Bearer …` header; undefined for any other. */
export const bearerToken = (authorization: string): string | undefined => BEARER.exec(authorization)?.[1];

/** Resolves an `Authorization` header: a JWT of a trusted issuer or an API key (`sk_…`). */
export async function resolveCredential(authorization: string | undefined, at: Clock = clock): Promise<Resolution> {
  if (!authorization) return { kind: 'missing' };
  const token = bearerToken(authorization);
  if (!token) return { kind: 'invalid' };
  if (token.startsWith('sk_')) {
    const grant = await resolveApiKey(token, at);
    if (!grant) return { kind: 'invalid' };
    return {
      kind: 'valid',
      context: {
        credential: 'api_key', workspace_id: grant.workspaceId, scope: grant.scope, sub: grant.keyId,
        ...(grant.expiresAt !== undefined && { exp: String(grant.expiresAt) }),
      },
    };
  }
  const payload = await verifyJwt(token);
  const context = payload && jwtContext(payload);
  return context ? { kind: 'valid', context } : { kind: 'invalid' };
}

/**
 * What API Gateway's JWT authorizer checked: an RS256 signature by the key the token's `kid` names, `iss` one of
 * the trusted issuers, `aud` one of that issuer's audiences, `exp` present and in the future, `nbf` and `iat` not
 * in the future. A token's times are read against the real time, as any verifier of it reads them: the service
 * clock (movable in tests) is domain time, and moving it must not expire the tests' tokens.
 */
async function verifyJwt(token: string): Promise<JWTPayload | undefined> {
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    return undefined;
  }
  const trusted = (await trustedIssuers()).find((candidate) => candidate.issuer === issuer);
  if (!trusted) return undefined;
  const now = new Date();
  try {
    const { payload } = await jwtVerify(
      token,
      (header, input) => {
        // jose would take the only key of a set for a token naming none; API Gateway needs the `kid` to find it.
        if (typeof header.kid !== 'string') throw new Error('the token names no key (kid)');
        return trusted.keys(header, input);
      },
      { issuer: trusted.issuer, audience: trusted.audiences, algorithms: ['RS256'], requiredClaims: ['exp'], currentDate: now },
    );
    if (payload.iat !== undefined && payload.iat > now.getTime() / 1000) return undefined; // issued in the future
    return payload;
  } catch {
    return undefined;
  }
}

/**
 * The context of a verified JWT: the claims the routes read, as they are, or undefined (the token is refused, 401)
 * when one of them is of another JSON type. Never made into text: `["read","write"]` once became "[read write]",
 * whose `write` the routes granted. `exp` is a number here, jose having checked it.
 */
export function jwtContext(payload: JWTPayload): AuthorizerContext | undefined {
  const context: AuthorizerContext = { credential: 'jwt', exp: String(payload.exp) };
  for (const name of READ_CLAIMS) {
    const value = payload[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return undefined;
    context[name] = value;
  }
  return context;
}
