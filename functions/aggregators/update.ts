import type { AggregatorUpdateInput } from '../../shared/domain/metering/aggregator-input';
import { updateAggregator } from '../../shared/domain/metering/aggregator-write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateAggregator.js';

export const handler = httpHandler<AggregatorUpdateInput>(route, ({ ctx, path, body }) => updateAggregator(ctx, path.id!, body));
