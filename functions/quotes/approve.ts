import { approveQuote } from '../../shared/domain/quotes/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/approveQuote.js';

export const handler = httpHandler(route, ({ ctx, path }) => approveQuote(ctx, path.id!));
