import { listEmails } from '../../shared/email/log';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listEmails.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listEmails(ctx, query));
