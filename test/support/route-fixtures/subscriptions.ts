import type { AreaFixtures } from './types';

export const subscriptionFixtures: AreaFixtures = { resources: {}, bodies: {} };
