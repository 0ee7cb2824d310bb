import { pricesOf, updatePrices } from '../../shared/domain/catalog/price-configurations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updatePrices.js';

export const handler = httpHandler<Parameters<typeof pricesOf>[0]>(route, ({ ctx, path, body }) => updatePrices(ctx, path.id!, pricesOf(body)));
