import { requestQuoteChanges } from '../../shared/domain/quotes/status';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/requestQuoteChanges.js';

export const handler = httpHandler(route, ({ ctx, path }) => requestQuoteChanges(ctx, path.id!));
