import { createHash, createPrivateKey, createPublicKey, createSign } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { serviceIssuer } from './issuer';

/**
 * The service as an issuer of access tokens (DESIGN.md §14). On AWS the RS256 key is an asymmetric KMS key whose
 * private half never leaves KMS (TOKEN_SIGNING_KEY_ID); locally it is the key set under `.local/` that the local
 * server hands over (useLocalSigningKeys). The issuer identifier is the API's base URL (PUBLIC_API_URL).
 */

export { DEVELOPMENT_AUDIENCE, resourceIdentifiers, serviceIssuer } from './issuer';

export interface LocalKeySet {
  privateJwk: JWK;
  jwks: { keys: JWK[] };
}

interface SigningKey {
  publicJwk: JWK & { kid: string };
  sign(signingInput: Buffer): Promise<Buffer>;
}

let localKeySet: LocalKeySet | undefined;
let signingKey: Promise<SigningKey> | undefined;

/**
 * The local server's key set (lib/local): tokens are then signed and verified with it instead of KMS. Returns a
 * function that restores the previous one (a process runs one local server at a time; tests start them in turn).
 */
export function useLocalSigningKeys(keys: LocalKeySet): () => void {
  const previous = localKeySet;
  localKeySet = keys;
  signingKey = undefined;
  return () => {
    localKeySet = previous;
    signingKey = undefined;
  };
}

/** True when tokens are signed locally (development and tests), false on AWS. */
export const signsLocally = (): boolean => !process.env.TOKEN_SIGNING_KEY_ID && localKeySet !== undefined;

function currentSigningKey(): Promise<SigningKey> {
  signingKey ??= (process.env.TOKEN_SIGNING_KEY_ID ? kmsSigningKey(process.env.TOKEN_SIGNING_KEY_ID) : localSigningKey()).catch((error) => {
    signingKey = undefined; // a failed KMS call is tried again by the next request, not remembered
    throw error;
  });
  return signingKey;
}

async function localSigningKey(): Promise<SigningKey> {
  if (!localKeySet) throw new Error('No token signing key: set TOKEN_SIGNING_KEY_ID (AWS) or start the local server');
  const privateKey = createPrivateKey({ key: localKeySet.privateJwk, format: 'jwk' });
  const publicJwk = localKeySet.jwks.keys.find((key) => key.kid === localKeySet!.privateJwk.kid) as JWK & { kid: string };
  return { publicJwk, sign: async (input) => createSign('RSA-SHA256').update(input).sign(privateKey) };
}

async function kmsSigningKey(keyId: string): Promise<SigningKey> {
  // Imported on first use (a lazy package, lib/bundling.ts): once per instance, when it first signs or lists its key.
  const { GetPublicKeyCommand, KMSClient, SignCommand } = await import('@aws-sdk/client-kms');
  const kms = new KMSClient({});
  const { PublicKey } = await kms.send(new GetPublicKeyCommand({ KeyId: keyId }));
  const jwk = createPublicKey({ key: Buffer.from(PublicKey!), format: 'der', type: 'spki' }).export({ format: 'jwk' }) as JWK;
  const publicJwk = { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
  return {
    publicJwk,
    sign: async (input) => {
      const digest = createHash('sha256').update(input).digest();
      const { Signature } = await kms.send(
        new SignCommand({ KeyId: keyId, Message: digest, MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' }),
      );
      return Buffer.from(Signature!);
    },
  };
}

/** The public keys tokens of this service are signed with, as a JWK Set (`/.well-known/jwks.json`). */
export async function serviceJwks(): Promise<{ keys: JWK[] }> {
  return { keys: [(await currentSigningKey()).publicJwk] };
}

export interface AccessTokenClaims {
  workspace_id: string;
  scope: string;
  sub: string;
  /** The resource (RFC 8707) the token is for: one of resourceIdentifiers(). */
  aud: string;
  client_id?: string;
  [claim: string]: unknown;
}

/** Signs an access token of this service (RS256, `typ: at+jwt` as RFC 9068 names it) valid `expiresInSeconds`. */
export async function signAccessToken(claims: AccessTokenClaims, expiresInSeconds: number, now = Date.now()): Promise<string> {
  const key = await currentSigningKey();
  const issuedAt = Math.floor(now / 1000);
  const header = { alg: 'RS256', typ: 'at+jwt', kid: key.publicJwk.kid };
  const payload = { ...claims, iss: serviceIssuer(), iat: issuedAt, exp: issuedAt + expiresInSeconds };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = await key.sign(Buffer.from(input));
  return `${input}.${signature.toString('base64url')}`;
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
