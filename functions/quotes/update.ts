import type { QuotePatch } from '../../shared/domain/quotes/input';
import { updateQuote } from '../../shared/domain/quotes/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateQuote.js';

export const handler = httpHandler<QuotePatch>(route, ({ ctx, path, body }) => updateQuote(ctx, path.id!, body));
