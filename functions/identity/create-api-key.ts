import { createApiKey, type ApiKeyRequest } from '../../shared/domain/api-keys/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createApiKey.js';

export const handler = httpHandler<ApiKeyRequest>(route, ({ ctx, body }) => createApiKey(ctx, body));
