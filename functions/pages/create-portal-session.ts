import { createPortalSession } from '../../shared/domain/pages/portal-sessions';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPortalSession.js';

export const handler = httpHandler(route, ({ ctx, path }) => createPortalSession(ctx, path.id!));
