import { protectedResourceMetadata } from '../../shared/domain/oauth/metadata';
import { NotFound } from '../../shared/errors';
import { publicHandler } from '../../shared/http/public-handler';
import { route } from '../../shared/schemas/generated/oauthProtectedResourceMetadataOfPath.js';

/** RFC 9728 §3.1: the metadata of the resource `<base>/<resource>`. */
export const handler = publicHandler(route, async ({ path }) => {
  const metadata = protectedResourceMetadata(`/${path.resource}`);
  if (!metadata) throw new NotFound('protected resource', `/${path.resource}`);
  return metadata;
});
