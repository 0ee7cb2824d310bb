import { updatePrices } from '../../shared/domain/catalog/price-configurations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/postPrices.js';

type Prices = Record<string, unknown>[];

/** Hyperline updates prices with POST, its body the array itself (docs/hyperline.md): the same replacement as `PUT …/prices`. */
export const handler = httpHandler<{ prices: Prices } | Prices>(route, ({ ctx, path, body }) => updatePrices(ctx, path.id!, Array.isArray(body) ? body : body.prices));
