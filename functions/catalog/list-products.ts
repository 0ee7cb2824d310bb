import { listProducts } from '../../shared/domain/catalog/products';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listProducts.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listProducts(ctx, query));
