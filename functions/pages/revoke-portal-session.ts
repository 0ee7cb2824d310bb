import { revokePortalSession } from '../../shared/domain/pages/portal-sessions';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/revokePortalSession.js';

export const handler = httpHandler(route, ({ ctx, path }) => revokePortalSession(ctx, path.id!, path.sessionId!));
