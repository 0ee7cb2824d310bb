import type { RouteDefinition } from '../route-definition';
import { metricPath, metricQuery, metricResource, overviewQuery, overviewResource } from '../../shared/schemas/analytics';

const maintained = 'Kept up to date from the table stream (seconds behind the documents), per invoicing entity, currency and UTC day. Definitions and worked examples: docs/analytics.md.';

export const analyticsRoutes: RouteDefinition[] = [
  {
    id: 'getAnalytics', method: 'GET', path: '/v1/analytics', handler: 'functions/analytics/overview.ts', scope: 'read', tag: 'Analytics',
    summary: "Today's revenue figures of a currency: MRR, ARR, customers, this month's movements and billing, receivables by age",
    description: maintained,
    request: { query: overviewQuery }, response: { status: 200, schema: overviewResource },
  },
  {
    id: 'getAnalyticsMetric', method: 'GET', path: '/v1/analytics/{metric}', handler: 'functions/analytics/metric.ts', scope: 'read', tag: 'Analytics',
    summary: 'One revenue metric over time: its value per day, week or month of [from, to]',
    description: `${maintained} One Query per read, whatever the number of documents.`,
    request: { path: metricPath, query: metricQuery }, response: { status: 200, schema: metricResource },
  },
];
