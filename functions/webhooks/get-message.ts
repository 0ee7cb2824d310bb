import { getMessage } from '../../shared/domain/webhooks/messages';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getWebhookMessage.js';

export const handler = httpHandler(route, ({ ctx, path }) => getMessage(ctx, path.id!));
