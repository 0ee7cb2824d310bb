import { authorizationServerMetadata } from '../../shared/domain/oauth/metadata';
import { publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthAuthorizationServerMetadata.js';

export const handler = publicHandler(route, async () => authorizationServerMetadata());
