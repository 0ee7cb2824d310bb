import { deleteEndpoint } from '../../shared/domain/webhooks/endpoints';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteWebhookEndpoint.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteEndpoint(ctx, path.id!));
