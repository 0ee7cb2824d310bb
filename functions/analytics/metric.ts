import { httpHandler } from '../../shared/http/handler';
import type { MetricName } from '../../shared/domain/analytics/metrics';
import { readMetric, type AnalyticsQuery } from '../../shared/domain/analytics/read';
import { route } from '../../shared/schemas/generated/getAnalyticsMetric.js';

export const handler = httpHandler<unknown, AnalyticsQuery>(route, ({ ctx, path, query }) => readMetric(ctx, path.metric as MetricName, query));
