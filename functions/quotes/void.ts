import { voidQuote } from '../../shared/domain/quotes/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/voidQuote.js';

export const handler = httpHandler<{ reason: string }>(route, ({ ctx, path, body }) => voidQuote(ctx, path.id!, body));
