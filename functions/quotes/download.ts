import { downloadQuote } from '../../shared/domain/quotes/download';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/downloadQuote.js';

export const handler = httpHandler(route, ({ ctx, path }) => downloadQuote(ctx, path.id!));
