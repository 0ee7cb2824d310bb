import type { AreaFixtures } from './types';

export const quoteFixtures: AreaFixtures = { resources: {}, bodies: {} };
