import { revokeInvoiceLinks } from '../../shared/domain/pages/revoke-links';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/revokeInvoiceLinks.js';

export const handler = httpHandler(route, ({ ctx, path }) => revokeInvoiceLinks(ctx, path.id!));
