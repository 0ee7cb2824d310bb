import { listApiKeys } from '../../shared/domain/api-keys/manage';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listApiKeys.js';

export const handler = httpHandler(route, ({ ctx }) => listApiKeys(ctx));
