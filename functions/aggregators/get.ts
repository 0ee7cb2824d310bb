import { readAggregator } from '../../shared/domain/metering/aggregator-read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getAggregator.js';

export const handler = httpHandler(route, ({ ctx, path }) => readAggregator(ctx, path.id!));
