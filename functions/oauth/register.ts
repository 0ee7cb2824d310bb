import { registerClient, type ClientMetadata } from '../../shared/domain/oauth-clients/register';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/registerOAuthClient.js';

export const handler = httpHandler<ClientMetadata>(route, ({ ctx, body }) => registerClient(ctx, body));
