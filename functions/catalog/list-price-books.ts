import { listPriceBooks } from '../../shared/domain/catalog/price-books';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listPriceBooks.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listPriceBooks(ctx, query));
