import { changeSubscription, type ChangeInput } from '../../shared/domain/subscriptions/change';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateSubscription.js';

export const handler = httpHandler<ChangeInput>(
  route,
  ({ ctx, path, body }) => changeSubscription(ctx, path.id!, body),
  ({ ctx, path }) => getSubscription(ctx, path.id!),
);
