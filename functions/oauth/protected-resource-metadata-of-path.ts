import { protectedResourceMetadata } from '../../shared/domain/oauth/metadata';
import { NotFound } from '../../shared/errors';
import { publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthProtectedResourceMetadataOfPath.js';

export const handler = publicHandler(route, async ({ event }) => {
  const resource = event.pathParameters?.resource ?? '';
  const metadata = protectedResourceMetadata(`/${resource}`);
  if (!metadata) throw new NotFound('protected resource', `/${resource}`);
  return metadata;
});
