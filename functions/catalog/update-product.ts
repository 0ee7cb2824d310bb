import type { ProductInput } from '../../shared/domain/catalog/product';
import { updateProduct } from '../../shared/domain/catalog/products';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateProduct.js';

export const handler = httpHandler<ProductInput>(route, ({ ctx, path, body }) => updateProduct(ctx, path.id!, body));
