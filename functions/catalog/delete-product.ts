import { deleteProduct } from '../../shared/domain/catalog/products';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteProduct.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteProduct(ctx, path.id!));
