import { listEndpoints } from '../../shared/domain/webhooks/endpoints';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listWebhookEndpoints.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listEndpoints(ctx, query));
