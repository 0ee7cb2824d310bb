import { revokeQuoteLinks } from '../../shared/domain/pages/revoke-links';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/revokeQuoteLinks.js';

export const handler = httpHandler(route, ({ ctx, path }) => revokeQuoteLinks(ctx, path.id!));
