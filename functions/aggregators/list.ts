import { listAggregators } from '../../shared/domain/metering/aggregator-read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listAggregators.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listAggregators(ctx, query));
