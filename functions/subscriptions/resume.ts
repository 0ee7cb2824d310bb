import { resumeSubscription } from '../../shared/domain/subscriptions/lifecycle';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/resumeSubscription.js';

export const handler = httpHandler<Parameters<typeof resumeSubscription>[2]>(
  route,
  ({ ctx, path, body }) => resumeSubscription(ctx, path.id!, body ?? {}),
  ({ ctx, path }) => getSubscription(ctx, path.id!),
);
