import { revokeApiKey } from '../../shared/domain/api-keys/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/revokeApiKey.js';

export const handler = httpHandler(route, ({ ctx, path }) => revokeApiKey(ctx, path.id!));
