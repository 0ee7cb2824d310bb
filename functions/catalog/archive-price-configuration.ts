import { archivePriceConfiguration } from '../../shared/domain/catalog/price-configurations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/archivePriceConfiguration.js';

export const handler = httpHandler(route, ({ ctx, path }) => archivePriceConfiguration(ctx, path.id!));
