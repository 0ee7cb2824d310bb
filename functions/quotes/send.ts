import { sendQuote } from '../../shared/domain/quotes/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/sendQuote.js';

export const handler = httpHandler<{ email: string; message?: string | null }>(route, ({ ctx, path, body }) => sendQuote(ctx, path.id!, body));
