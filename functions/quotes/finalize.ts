import { finalizeQuote } from '../../shared/domain/quotes/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/finalizeQuote.js';

export const handler = httpHandler(route, ({ ctx, path }) => finalizeQuote(ctx, path.id!));
