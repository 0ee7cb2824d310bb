/**
 * The token matrix: bearer tokens that are each wrong in exactly one way, and what the API must answer to them on
 * every route — 401 when the authorizer (shared/identity/credentials.ts, on AWS and locally) refuses the token, a
 * claim the routes read being of the wrong JSON type included, 403 when the token is genuine but its claims do not
 * entitle it (shared/http/request-context.ts). `valid` is made by the same
 * builder with nothing wrong, so each variant fails by its one defect only.
 */
import { createHmac, createPublicKey } from 'node:crypto';
import { importJWK, SignJWT, type JWK } from 'jose';
import { generateKeys, LOCAL_AUDIENCE, LOCAL_ISSUER, type LocalKeys } from '../../lib/local/jwt';
import { newApiKey } from '../../shared/domain/api-keys/api-key';
import type { Scope } from '../../shared/http/route-meta';

export interface TokenVariant {
  name: string;
  /** The Authorization header sent, none when undefined. */
  authorization: string | undefined;
  status: 401 | 403;
  code: 'unauthorized' | 'workspace_missing' | 'insufficient_scope';
  /** The route scopes on which the variant is refused (every route when absent). */
  refusedOn?: Scope[];
}

type Claims = Record<string, unknown>;
type Header = { alg: string; kid?: string; typ?: string };

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const bearer = (token: string) => `Bearer ${token}`;

async function rs256(jwk: JWK, claims: Claims, header: Header): Promise<string> {
  return new SignJWT(claims).setProtectedHeader(header).sign(await importJWK(jwk, 'RS256'));
}

/** Every variant, for a workspace whose tokens are otherwise valid; `valid` is the control. */
export async function tokenMatrix(keys: LocalKeys, workspace: string): Promise<{ valid: string; variants: TokenVariant[] }> {
  const now = Math.floor(Date.now() / 1000);
  const kid = keys.privateJwk.kid!;
  const good: Claims = { workspace_id: workspace, scope: 'read write admin', iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE, sub: 'matrix', iat: now, exp: now + 3600 };
  const header: Header = { alg: 'RS256', kid, typ: 'JWT' };
  const sign = (changes: Claims = {}, omit: string[] = [], signedHeader: Header = header) => {
    const claims = { ...good, ...changes };
    for (const name of omit) delete claims[name];
    return rs256(keys.privateJwk, claims, signedHeader);
  };
  const stranger = await generateKeys();
  const publicPem = createPublicKey({ key: keys.jwks.keys[0]!, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
  const unsigned = (h: Header) => `${base64url(h)}.${base64url(good)}.`;
  const hs256WithPublicKey = () => {
    const content = `${base64url({ alg: 'HS256', kid, typ: 'JWT' })}.${base64url(good)}`;
    return `${content}.${createHmac('sha256', publicPem).update(content).digest('base64url')}`;
  };
  const [signedHeader, , signature] = (await sign()).split('.');
  const tampered = `${signedHeader}.${base64url({ ...good, workspace_id: 'ws_someone_else' })}.${signature}`;

  const refused = (status: 401 | 403, code: TokenVariant['code'], entries: [string, string | undefined][], refusedOn?: Scope[]): TokenVariant[] =>
    entries.map(([name, authorization]) => ({ name, authorization, status, code, ...(refusedOn && { refusedOn }) }));

  const variants = [
    ...refused(401, 'unauthorized', [
      ['no Authorization header', undefined],
      ['Bearer and no token', 'Bearer'],
      ['a valid token under the Basic scheme', `Basic ${await sign()}`],
      ['not a JWT', bearer('not-a-jwt')],
      ['three segments of garbage', bearer('a.b.c')],
      ['alg none, no signature', bearer(unsigned({ alg: 'none', typ: 'JWT' }))],
      ['alg none naming the real kid', bearer(unsigned({ alg: 'none', kid, typ: 'JWT' }))],
      ['HS256 signed with the public key', bearer(hs256WithPublicKey())],
      ['signed by another key under its own kid', bearer(await rs256(stranger.privateJwk, good, { alg: 'RS256', kid: stranger.privateJwk.kid!, typ: 'JWT' }))],
      ['signed by another key under the real kid', bearer(await rs256(stranger.privateJwk, good, header))],
      ['the real key under an unknown kid', bearer(await sign({}, [], { ...header, kid: 'not-a-known-key' }))],
      ['the real key naming no kid', bearer(await sign({}, [], { alg: 'RS256', typ: 'JWT' }))],
      ['claims changed after signing', bearer(tampered)],
      ['exp missing', bearer(await sign({}, ['exp']))],
      ['exp passed (expired a minute ago)', bearer(await sign({ exp: now - 60 }))],
      ['exp not a number', bearer(await sign({ exp: 'tomorrow' }))],
      ['nbf in the future', bearer(await sign({ nbf: now + 3600 }))],
      ['iat in the future', bearer(await sign({ iat: now + 3600 }))],
      ['another issuer', bearer(await sign({ iss: 'https://evil.example.com/' }))],
      ['iss missing', bearer(await sign({}, ['iss']))],
      ['another audience', bearer(await sign({ aud: 'another-api' }))],
      ['aud missing', bearer(await sign({}, ['aud']))],
      ['an API key never issued', bearer(newApiKey(workspace))],
      ['an API key naming no workspace', bearer(`sk_live_${'A'.repeat(60)}`)],
      ['an API key with its last character changed', bearer(`${newApiKey(workspace).slice(0, -1)}0`)],
      // A claim the routes read, of another JSON type than its own (a string): refused, never made into text.
      ['workspace_id null', bearer(await sign({ workspace_id: null }))],
      ['workspace_id a number', bearer(await sign({ workspace_id: 12345 }))],
      ['workspace_id true', bearer(await sign({ workspace_id: true }))],
      ['workspace_id false', bearer(await sign({ workspace_id: false }))],
      ['workspace_id an array', bearer(await sign({ workspace_id: [workspace] }))],
      ['workspace_id an object', bearer(await sign({ workspace_id: { id: workspace } }))],
      ['scope an array of every scope', bearer(await sign({ scope: ['read', 'write', 'admin'] }))],
      ['scope an array of one scope', bearer(await sign({ scope: ['write'] }))],
      ['scope a number', bearer(await sign({ scope: 42 }))],
      ['scope an object', bearer(await sign({ scope: { write: true } }))],
      ['scope null', bearer(await sign({ scope: null }))],
      ['scope an array made into text', bearer(await sign({ scope: '[read write admin]' }))],
      ['sub a number', bearer(await sign({ sub: 42 }))],
      ['client_id an array', bearer(await sign({ client_id: ['a'] }))],
    ]),
    ...refused(403, 'workspace_missing', [
      ['workspace_id missing', bearer(await sign({}, ['workspace_id']))],
      ['workspace_id empty', bearer(await sign({ workspace_id: '' }))],
      ['workspace_id the string "null"', bearer(await sign({ workspace_id: 'null' }))],
      ['workspace_id ws_ alone', bearer(await sign({ workspace_id: 'ws_' }))],
      ['workspace_id of 65 characters', bearer(await sign({ workspace_id: `ws_${'a'.repeat(62)}` }))],
      ['workspace_id without the ws_ prefix', bearer(await sign({ workspace_id: 'demo' }))],
      ['workspace_id with a key separator #', bearer(await sign({ workspace_id: `${workspace}#CUS` }))],
      ['workspace_id with a space', bearer(await sign({ workspace_id: 'ws_a b' }))],
      ['workspace_id with a slash', bearer(await sign({ workspace_id: 'ws_a/../b' }))],
      ['workspace_id with non-ASCII letters', bearer(await sign({ workspace_id: 'ws_émile' }))],
    ]),
    ...refused(403, 'insufficient_scope', [
      ['scope missing', bearer(await sign({}, ['scope']))],
      ['scope empty', bearer(await sign({ scope: '' }))],
      ['scopes separated by a comma', bearer(await sign({ scope: 'read,write' }))],
      ['scopes in capitals', bearer(await sign({ scope: 'READ WRITE ADMIN' }))],
    ], ['read', 'write', 'admin']),
    ...refused(403, 'insufficient_scope', [['read and write scopes on an admin route', bearer(await sign({ scope: 'read write' }))]], ['admin']),
    ...refused(403, 'insufficient_scope', [['read scope on a write route', bearer(await sign({ scope: 'read' }))]], ['write']),
    ...refused(403, 'insufficient_scope', [['write scope on a read route', bearer(await sign({ scope: 'write' }))]], ['read']),
  ];
  return { valid: bearer(await sign()), variants };
}
