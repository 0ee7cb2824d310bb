import { cancelFromRequest, type CancelRequest } from '../../shared/domain/hyperline/cancel-request';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/cancelSubscription.js';

export const handler = httpHandler<CancelRequest>(
  route,
  ({ ctx, path, body }) => cancelFromRequest(ctx, path.id!, body ?? {}),
  ({ ctx, path }) => getSubscription(ctx, path.id!),
);
