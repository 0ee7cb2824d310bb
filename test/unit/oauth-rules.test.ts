import fc from 'fast-check';
import { calculatePKCECodeChallenge, generateRandomCodeVerifier } from 'oauth4webapi';
import { grantedScope } from '../../shared/domain/oauth/authorization-request';
import { metadataUrlProblem, validateDocument } from '../../shared/domain/oauth/client-metadata-document';
import { membershipsOf } from '../../shared/domain/oauth/membership';
import { consentPage, escape } from '../../shared/domain/oauth/pages';
import { parseWorkspaceToken, s256, workspaceToken } from '../../shared/domain/oauth/secrets';

describe('workspace memberships from the ID token claim', () => {
  it('takes an array or a space/comma separated string, keeps well-formed workspace ids only, once', () => {
    expect(membershipsOf(['ws_a', 'ws_b', 'ws_a'])).toEqual(['ws_a', 'ws_b']);
    expect(membershipsOf('ws_a, ws_b ws_c')).toEqual(['ws_a', 'ws_b', 'ws_c']);
    expect(membershipsOf(['ws_a#x', 'WS_b', 'ws_', 42, null, 'admin'])).toEqual([]);
    expect(membershipsOf(undefined)).toEqual([]);
    expect(membershipsOf({ ws_a: true })).toEqual([]);
  });
});

describe('scopes of an authorization request', () => {
  it('grants what is asked within what the client may have; all of it when nothing is asked', () => {
    expect(grantedScope('read', {})).toBe('read');
    expect(grantedScope(undefined, {})).toBe('read write');
    expect(grantedScope('openid read write read', {})).toBe('read write');
    expect(grantedScope('read write', { scope: 'read' })).toBe('read');
    expect(() => grantedScope('write', { scope: 'read' })).toThrow(/read/);
    expect(() => grantedScope('admin', {})).toThrow();
    expect(() => grantedScope('admin', { kind: 'metadata-document' })).toThrow();
    expect(grantedScope('read admin', { kind: 'registered' })).toBe('read');
  });

  it('asks admin for the first-party dashboard only when it asks for it', () => {
    expect(grantedScope('read write admin', { kind: 'first-party' })).toBe('read write admin');
    expect(grantedScope(undefined, { kind: 'first-party' })).toBe('read write');
  });
});

describe('Client ID Metadata Document URLs', () => {
  it('must be https with a path, no dot segments, fragment or credentials, in normal form', () => {
    expect(metadataUrlProblem('https://app.example.com/oauth/client.json')).toBeUndefined();
    expect(metadataUrlProblem('http://app.example.com/client.json')).toBe('must use https');
    expect(metadataUrlProblem('https://app.example.com/')).toBe('must have a path');
    expect(metadataUrlProblem('https://app.example.com/a/../client.json')).toBe('must not contain . or .. path segments');
    expect(metadataUrlProblem('https://app.example.com/client.json#x')).toBe('must not contain a fragment');
    expect(metadataUrlProblem('https://user:pw@app.example.com/client.json')).toBe('must not contain credentials');
    expect(metadataUrlProblem('https://APP.example.com/client.json')).toMatch(/normal form/);
  });

  it('documents must name themselves, be public clients and list usable redirect URIs', () => {
    const url = 'https://app.example.com/client.json';
    const valid = { client_id: url, client_name: 'App', redirect_uris: ['https://app.example.com/cb'], logo_uri: 'javascript:alert(1)' };
    expect(validateDocument(url, valid)).toEqual({ clientId: url, kind: 'metadata-document', name: 'App', logoUri: undefined, redirectUris: ['https://app.example.com/cb'], scope: undefined });
    expect(() => validateDocument(url, { ...valid, client_id: `${url}?x` })).toThrow(/another client_id/);
    expect(() => validateDocument(url, { ...valid, client_secret: 's' })).toThrow(/client_secret/);
    expect(() => validateDocument(url, { ...valid, token_endpoint_auth_method: 'client_secret_basic' })).toThrow(/public client/);
    expect(() => validateDocument(url, { ...valid, redirect_uris: [] })).toThrow(/redirect_uris/);
    expect(() => validateDocument(url, { ...valid, redirect_uris: ['http://app.example.com/cb'] })).toThrow(/must use https/);
  });
});

describe('codes and refresh tokens', () => {
  it('carry their workspace and parse back to it; anything else parses to nothing', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^ws_[A-Za-z0-9_-]{1,61}$/), (workspace) => {
        const token = workspaceToken(workspace);
        expect(parseWorkspaceToken(token)?.workspaceId).toBe(workspace);
        expect(parseWorkspaceToken(`${token}x`)).toBeUndefined();
      }),
    );
    expect(parseWorkspaceToken('ws_a#b.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')).toBeUndefined();
    expect(parseWorkspaceToken(undefined)).toBeUndefined();
  });

  it('PKCE S256 agrees with an independent implementation (oauth4webapi, as clients compute it)', async () => {
    for (let i = 0; i < 20; i += 1) {
      const verifier = generateRandomCodeVerifier();
      expect(s256(verifier)).toBe(await calculatePKCECodeChallenge(verifier));
    }
  });
});

describe('the consent page', () => {
  it('escapes whatever the client says about itself', () => {
    const page = consentPage('req', {
      client_id: 'https://evil.example/c.json', client_kind: 'metadata-document', client_name: '<script>alert(1)</script>', redirect_uri: 'https://evil.example/cb',
      state: 's', code_challenge: 'c', resource: 'https://api', scope: 'read', browser: 'b', csrf: '"><img src=x>', expires_at: 0, subject_label: 'me', workspaces: ['ws_a'],
    });
    expect(page).not.toContain('<script>');
    expect(page).toContain(escape('<script>alert(1)</script>'));
    expect(page).not.toContain('"><img');
  });
});
