import { constants, generateKeyPairSync, privateEncrypt } from 'node:crypto';
import { jest } from '@jest/globals';
import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { generateKeys } from '../../lib/local/jwt';
import { resolveCredential } from '../../shared/identity/credentials';
import { serviceJwks, signAccessToken, useLocalSigningKeys } from '../../shared/identity/service-tokens';
import { asServiceIssuer } from '../support/service-issuer';

const ISSUER = 'https://billing.example.com';
asServiceIssuer(ISSUER);

const claims = { workspace_id: 'ws_tokens', scope: 'read', sub: 'user_1', client_id: 'https://app.example.com/client.json', aud: ISSUER };

describe('access tokens of the service', () => {
  it('are RS256 JWTs of its issuer (its base URL), verifiable with its JWKS, and resolve to their claims', async () => {
    const token = await signAccessToken(claims, 900);
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(await serviceJwks()), { issuer: ISSUER, audience: ISSUER });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(payload.exp! - payload.iat!).toBe(900);
    const resolution = await resolveCredential(`Bearer ${token}`);
    expect(resolution).toEqual({ kind: 'valid', context: expect.objectContaining({ credential: 'jwt', workspace_id: 'ws_tokens', scope: 'read', client_id: claims.client_id }) });
  });

  it('cannot name another issuer through their claims, and a token for another resource is refused', async () => {
    const token = await signAccessToken({ ...claims, iss: 'https://evil.example.com' }, 900);
    expect((await jwtVerify(token, createLocalJWKSet(await serviceJwks()))).payload.iss).toBe(ISSUER);
    expect((await resolveCredential(`Bearer ${await signAccessToken({ ...claims, aud: 'https://other.example.com' }, 900)}`)).kind).toBe('invalid');
    expect((await resolveCredential(`Bearer ${await signAccessToken(claims, 900, Date.now() - 901_000)}`)).kind).toBe('invalid'); // expired
  });

  it('are signed by KMS when TOKEN_SIGNING_KEY_ID is set: digest signing, and the JWKS built from its public key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const send = jest.spyOn(KMSClient.prototype, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof GetPublicKeyCommand) return { PublicKey: publicKey.export({ type: 'spki', format: 'der' }) };
      if (command instanceof SignCommand) {
        expect(command.input).toMatchObject({ MessageType: 'DIGEST', SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' });
        // What KMS does with a digest: RSASSA-PKCS1-v1_5 over the DigestInfo of that SHA-256, without hashing again.
        const digestInfo = Buffer.concat([Buffer.from('3031300d060960864801650304020105000420', 'hex'), Buffer.from(command.input.Message!)]);
        return { Signature: privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, digestInfo) };
      }
      throw new Error('unexpected KMS command');
    }) as never);
    process.env.TOKEN_SIGNING_KEY_ID = 'arn:aws:kms:eu-west-1:111122223333:key/test';
    const restore = useLocalSigningKeys(await generateKeys()); // resets the cached key; KMS takes precedence
    try {
      const token = await signAccessToken(claims, 600);
      const jwks = await serviceJwks();
      expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: ISSUER, audience: ISSUER });
      expect(payload.workspace_id).toBe('ws_tokens');
      expect(send.mock.calls.filter(([command]) => command instanceof GetPublicKeyCommand)).toHaveLength(1); // once per instance
    } finally {
      delete process.env.TOKEN_SIGNING_KEY_ID;
      restore();
      send.mockRestore();
    }
  });
});
