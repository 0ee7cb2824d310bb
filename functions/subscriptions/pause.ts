import { pauseSubscription } from '../../shared/domain/subscriptions/lifecycle';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/pauseSubscription.js';

export const handler = httpHandler<Parameters<typeof pauseSubscription>[2]>(
  route,
  ({ ctx, path, body }) => pauseSubscription(ctx, path.id!, body ?? {}),
  ({ ctx, path }) => getSubscription(ctx, path.id!),
);
