import { createPriceBook } from '../../shared/domain/catalog/price-books';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPriceBook.js';

export const handler = httpHandler<{ name: string; description?: string | null }>(route, ({ ctx, body }) => createPriceBook(ctx, body));
