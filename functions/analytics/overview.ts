import { httpHandler } from '../../shared/http/handler';
import { readOverview, type AnalyticsQuery } from '../../shared/domain/analytics/read';
import { route } from '../../shared/schemas/generated/getAnalytics.js';

export const handler = httpHandler<unknown, AnalyticsQuery>(route, ({ ctx, query }) => readOverview(ctx, query));
