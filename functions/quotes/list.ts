import { listQuotes } from '../../shared/domain/quotes/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listQuotes.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listQuotes(ctx, query));
