import { retryMessage } from '../../shared/domain/webhooks/messages';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/retryWebhookMessage.js';

export const handler = httpHandler(route, ({ ctx, path }) => retryMessage(ctx, path.id!));
