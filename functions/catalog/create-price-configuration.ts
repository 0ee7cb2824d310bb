import { createPriceConfiguration, type PriceConfigurationInput } from '../../shared/domain/catalog/price-configurations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPriceConfiguration.js';

export const handler = httpHandler<PriceConfigurationInput>(route, ({ ctx, body }) => createPriceConfiguration(ctx, body));
