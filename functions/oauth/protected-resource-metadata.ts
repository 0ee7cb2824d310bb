import { protectedResourceMetadata } from '../../shared/domain/oauth/metadata';
import { publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthProtectedResourceMetadata.js';

export const handler = publicHandler(route, async () => protectedResourceMetadata());
