import { createProduct, type ProductCreateInput } from '../../shared/domain/catalog/products';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createProduct.js';

export const handler = httpHandler<ProductCreateInput>(route, ({ ctx, body }) => createProduct(ctx, body));
