import { getQuote } from '../../shared/domain/quotes/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getQuote.js';

export const handler = httpHandler(route, ({ ctx, path }) => getQuote(ctx, path.id!));
