import type { AreaFixtures } from './types';

export const analyticsFixtures: AreaFixtures = {
  resources: {
    // The metric is a name, not a resource of the workspace: every workspace reads its own figures of it.
    '/v1/analytics/{metric}': async () => ({ params: { metric: 'mrr' }, read: '/v1/analytics?currency=EUR' }),
  },
  bodies: {},
  queries: {
    getAnalytics: '?currency=EUR',
    getAnalyticsMetric: '?currency=EUR',
  },
};
