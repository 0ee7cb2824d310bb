import type { AggregatorCreateInput } from '../../shared/domain/metering/aggregator-input';
import { createAggregator } from '../../shared/domain/metering/aggregator-write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createAggregator.js';

export const handler = httpHandler<AggregatorCreateInput>(route, ({ ctx, body }) => createAggregator(ctx, body));
