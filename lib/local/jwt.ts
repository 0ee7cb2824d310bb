import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createLocalJWKSet, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload, type JWTVerifyGetKey,
} from 'jose';

/**
 * The local issuer: what the AWS JWT authorizer checks, done here with jose: an RS256 signature by the key its `kid`
 * names, `iss`, `aud`, `exp` (required), `nbf` and `iat` not in the future. docs/decisions.md, "Authentication".
 */
export const LOCAL_ISSUER = 'urn:billing-api:local';
export const LOCAL_AUDIENCE = 'billing-api';

export interface LocalKeys {
  privateJwk: JWK;
  jwks: { keys: JWK[] };
}

/** Loads the RS256 key pair kept under `dir` (`.local/` by default), creating it on first use. */
export async function loadOrCreateKeys(dir: string): Promise<LocalKeys> {
  const file = join(dir, 'jwt-keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalKeys;
  const keys = await generateKeys();
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

export async function generateKeys(): Promise<LocalKeys> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `local-${Date.now().toString(36)}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { privateJwk, jwks: { keys: [publicJwk] } };
}

export interface TokenOptions {
  workspace: string;
  scope?: string;
  expiresInSeconds?: number;
  issuer?: string;
  audience?: string;
  subject?: string;
}

export async function signToken(keys: LocalKeys, options: TokenOptions): Promise<string> {
  const key = await importJWK(keys.privateJwk, 'RS256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ workspace_id: options.workspace, scope: options.scope ?? 'read write' })
    .setProtectedHeader({ alg: 'RS256', kid: keys.privateJwk.kid, typ: 'JWT' })
    .setIssuer(options.issuer ?? LOCAL_ISSUER)
    .setAudience(options.audience ?? LOCAL_AUDIENCE)
    .setSubject(options.subject ?? 'local-developer')
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSeconds ?? 3600))
    .sign(key);
}

/** Verified tokens are remembered until they expire, so a client reusing its token pays the RS256 check once. */
const MAX_REMEMBERED = 1_000;

/** Returns a verifier of bearer tokens: the claims when valid, undefined otherwise (→ 401). */
export function tokenVerifier(keys: LocalKeys) {
  const keySet = createLocalJWKSet(keys.jwks);
  // jose would take the only key of the set for a token naming none; API Gateway needs the `kid` to find it.
  const keyNamedByToken: JWTVerifyGetKey = (header, token) => {
    if (typeof header.kid !== 'string') throw new Error('the token names no key (kid)');
    return keySet(header, token);
  };
  const verified = new Map<string, JWTPayload>();
  return async (authorization: string | undefined): Promise<JWTPayload | undefined> => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) return undefined;
    const token = match[1]!;
    const known = verified.get(token);
    if (known) {
      if ((known.exp ?? 0) * 1000 > Date.now()) return known;
      verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, keyNamedByToken, {
        issuer: LOCAL_ISSUER, audience: LOCAL_AUDIENCE, algorithms: ['RS256'], requiredClaims: ['exp'],
      });
      if (payload.iat !== undefined && payload.iat > Date.now() / 1000) return undefined; // issued in the future
      if (verified.size >= MAX_REMEMBERED) verified.delete(verified.keys().next().value!);
      verified.set(token, payload);
      return payload;
    } catch {
      return undefined;
    }
  };
}

/** API Gateway hands claims to Lambda as strings (arrays flattened): mimic it so handlers meet the same shapes. */
export function claimsAsApiGateway(payload: JWTPayload): Record<string, string> {
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : Array.isArray(value) ? `[${value.join(' ')}]` : String(value),
    ]),
  );
}
