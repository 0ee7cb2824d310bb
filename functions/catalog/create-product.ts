import { createProduct } from '../../shared/domain/catalog/products';
import type { ProductInput, ProductType } from '../../shared/domain/catalog/product';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createProduct.js';

export const handler = httpHandler<ProductInput & { name: string; type: ProductType }>(route, ({ ctx, body }) => createProduct(ctx, body));
