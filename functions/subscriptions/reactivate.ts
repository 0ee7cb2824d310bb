import { reactivateSubscription } from '../../shared/domain/hyperline/reactivate';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/reactivateSubscription.js';

export const handler = httpHandler(
  route,
  ({ ctx, path }) => reactivateSubscription(ctx, path.id!),
  ({ ctx, path }) => getSubscription(ctx, path.id!),
);
