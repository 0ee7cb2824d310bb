import { simulatePrice } from '../../shared/domain/catalog/price-configurations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/simulatePrice.js';

export const handler = httpHandler<{ quantity: number; amount?: number }>(route, ({ ctx, path, body }) => simulatePrice(ctx, path.id!, body));
