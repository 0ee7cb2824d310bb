import { createQuote } from '../../shared/domain/quotes/create';
import type { QuoteInput } from '../../shared/domain/quotes/input';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createQuote.js';

export const handler = httpHandler<QuoteInput>(route, ({ ctx, body }) => createQuote(ctx, body));
