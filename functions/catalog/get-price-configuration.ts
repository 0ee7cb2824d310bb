import { getPriceConfiguration } from '../../shared/domain/catalog/price-configurations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getPriceConfiguration.js';

export const handler = httpHandler(route, ({ ctx, path }) => getPriceConfiguration(ctx, path.id!));
