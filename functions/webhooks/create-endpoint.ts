import { createEndpoint, type EndpointInput } from '../../shared/domain/webhooks/endpoints';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createWebhookEndpoint.js';

export const handler = httpHandler<EndpointInput & { url: string }>(route, ({ ctx, body }) => createEndpoint(ctx, body));
