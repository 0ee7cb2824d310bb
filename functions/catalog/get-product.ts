import { getProduct } from '../../shared/domain/catalog/products';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getProduct.js';

export const handler = httpHandler(route, ({ ctx, path }) => getProduct(ctx, path.id!));
