import type { AreaFixtures } from './types';

export const oauthFixtures: AreaFixtures = {
  resources: {
    // Public: only named here so the matrix knows how to fill the path (no workspace to cross).
    '/.well-known/oauth-protected-resource/{resource}': async () => ({ params: { resource: 'mcp' }, read: '/.well-known/oauth-protected-resource/mcp' }),
  },
  bodies: {
    registerOAuthClient: { redirect_uris: ['https://app.example.com/callback'] },
    oauthDevelopmentSignIn: { request: 'unknown', csrf: 'x', subject: 'dev@example.com', workspaces: 'ws_local' },
    oauthConsent: { request: 'unknown', csrf: 'x', workspace: 'ws_local', decision: 'approve' },
    oauthToken: { grant_type: 'refresh_token', client_id: 'cli_01JZZZZZZZZZZZZZZZZZZZZZZZ', refresh_token: 'unknown' },
    oauthRevoke: { token: 'unknown', client_id: 'cli_01JZZZZZZZZZZZZZZZZZZZZZZZ' },
  },
};
