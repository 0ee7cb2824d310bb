import { cancelSubscription, type CancelInput } from '../../shared/domain/subscriptions/cancel';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/cancelSubscription.js';

export const handler = httpHandler<CancelInput>(
  route,
  ({ ctx, path, body }) => cancelSubscription(ctx, path.id!, body ?? {}),
  ({ ctx, path }) => getSubscription(ctx, path.id!),
);
