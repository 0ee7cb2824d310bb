import { setProductStatus } from '../../shared/domain/catalog/products';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/unarchiveProduct.js';

export const handler = httpHandler(route, ({ ctx, path }) => setProductStatus(ctx, path.id!, 'active'));
