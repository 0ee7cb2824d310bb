import type { AggregatorCreateBody } from '../../shared/domain/metering/aggregator-hyperline';
import { createAggregator } from '../../shared/domain/metering/aggregator-write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createAggregator.js';

export const handler = httpHandler<AggregatorCreateBody>(route, ({ ctx, body }) => createAggregator(ctx, body));
