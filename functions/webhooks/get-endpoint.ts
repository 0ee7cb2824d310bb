import { getEndpoint } from '../../shared/domain/webhooks/endpoints';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getWebhookEndpoint.js';

export const handler = httpHandler(route, ({ ctx, path }) => getEndpoint(ctx, path.id!));
