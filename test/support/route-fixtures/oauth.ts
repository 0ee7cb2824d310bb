import type { AreaFixtures } from './types';

export const oauthFixtures: AreaFixtures = {
  resources: {},
  bodies: { registerOAuthClient: { redirect_uris: ['https://app.example.com/callback'] } },
};
