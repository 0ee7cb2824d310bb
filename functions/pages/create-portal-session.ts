import { openPortalSession, replayPortalSession } from '../../shared/email/portal-request';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPortalSession.js';

export const handler = httpHandler<{ send_email?: boolean }>(
  route,
  ({ ctx, path, body }) => openPortalSession(ctx, path.id!, body),
  ({ ctx }, created) => replayPortalSession(ctx, created),
);
