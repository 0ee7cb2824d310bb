import { updateEndpoint, type EndpointInput } from '../../shared/domain/webhooks/endpoints';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateWebhookEndpoint.js';

export const handler = httpHandler<EndpointInput>(route, ({ ctx, path, body }) => updateEndpoint(ctx, path.id!, body));
