import { listMessages, type MessageQuery } from '../../shared/domain/events/list-messages';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listWebhookMessages.js';

export const handler = httpHandler<unknown, MessageQuery>(route, ({ ctx, query }) => listMessages(ctx, query));
