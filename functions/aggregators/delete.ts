import { deleteAggregator } from '../../shared/domain/metering/aggregator-write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteAggregator.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteAggregator(ctx, path.id!));
