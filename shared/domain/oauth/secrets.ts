import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 bits, base64url: authorization request ids, codes, refresh tokens, CSRF tokens, browser bindings. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** What the table keeps of a secret: its SHA-256 (a reader of the table cannot use what it reads). */
export const digest = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(digest(given));
  const b = Buffer.from(digest(expected));
  return timingSafeEqual(a, b);
}

/** RFC 7636 §4.2: BASE64URL(SHA256(code_verifier)). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** A code challenge S256: 43 base64url characters. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Codes and refresh tokens are `<workspace>.<secret>`: the workspace says which partition to look in (every key of
 * the table begins with it), the secret's digest which item. A made-up workspace finds nothing, since the digest of
 * the whole token must match an item of that workspace.
 */
export const workspaceToken = (workspaceId: string): string => `${workspaceId}.${randomSecret()}`;

const WORKSPACE_TOKEN = /^(ws_[A-Za-z0-9_-]{1,61})\.([A-Za-z0-9_-]{43})$/;

export function parseWorkspaceToken(token: unknown): { workspaceId: string; digest: string } | undefined {
  if (typeof token !== 'string') return undefined;
  const match = WORKSPACE_TOKEN.exec(token);
  return match ? { workspaceId: match[1]!, digest: digest(token) } : undefined;
}
