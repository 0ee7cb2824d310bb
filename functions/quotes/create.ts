import { toQuoteInput, type HyperlineQuoteInput } from '../../shared/domain/hyperline/quote-request';
import { createQuote } from '../../shared/domain/quotes/create';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createQuote.js';

/** Ours or Hyperline's body (its `subscription` as the quote's lines; docs/hyperline.md). */
export const handler = httpHandler<HyperlineQuoteInput>(route, async ({ ctx, body }) => createQuote(ctx, await toQuoteInput(ctx, body)));
