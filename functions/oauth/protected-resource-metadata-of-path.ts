import { protectedResourceMetadata } from '../../shared/domain/oauth/metadata';
import { NotFound } from '../../shared/errors';
import { publicHandler } from '../../shared/http/public-handler';
import { validatePart } from '../../shared/http/request-parts';
import { route } from '../../shared/schemas/generated/oauthProtectedResourceMetadataOfPath.js';

/** RFC 9728 §3.1: the metadata of the resource `<base>/<resource>` (publicHandler validates query and body only). */
export const handler = publicHandler(route, async ({ event }) => {
  const { resource } = validatePart<{ resource: string }>('path', route.validate.path, { ...(event.pathParameters ?? {}) });
  const metadata = protectedResourceMetadata(`/${resource}`);
  if (!metadata) throw new NotFound('protected resource', `/${resource}`);
  return metadata;
});
