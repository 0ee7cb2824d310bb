import type { AggregatorUpdateBody } from '../../shared/domain/metering/aggregator-hyperline';
import { updateAggregator } from '../../shared/domain/metering/aggregator-write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateAggregator.js';

export const handler = httpHandler<AggregatorUpdateBody>(route, ({ ctx, path, body }) => updateAggregator(ctx, path.id!, body));
