import { listAttempts } from '../../shared/domain/webhooks/messages';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listWebhookAttempts.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, path, query }) => listAttempts(ctx, path.id!, query));
