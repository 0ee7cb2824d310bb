import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import { DEVELOPMENT_AUDIENCE } from '../../shared/identity/issuer';
import type { LocalKeySet } from '../../shared/identity/service-tokens';
import { DEVELOPMENT_ISSUER } from '../../shared/identity/trusted-issuers';

/**
 * Development tokens: signed with the local key set by the development issuer, which the local server trusts beside
 * the service's own (shared/identity/trusted-issuers.ts verifies both). docs/identity.md.
 */
export const LOCAL_ISSUER = DEVELOPMENT_ISSUER;
export const LOCAL_AUDIENCE = DEVELOPMENT_AUDIENCE;

export type LocalKeys = LocalKeySet;

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
