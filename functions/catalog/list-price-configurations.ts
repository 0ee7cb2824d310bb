import { listPriceConfigurations } from '../../shared/domain/catalog/price-configurations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listPriceConfigurations.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listPriceConfigurations(ctx, query));
