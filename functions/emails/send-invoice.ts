import { replayResend, resendInvoice } from '../../shared/email/resend';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/sendInvoice.js';

export const handler = httpHandler(
  route,
  ({ ctx, path }) => resendInvoice(ctx, path.id!),
  ({ ctx }, created) => replayResend(ctx, created),
);
