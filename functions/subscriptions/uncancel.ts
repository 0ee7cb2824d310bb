import { undoCancellation } from '../../shared/domain/subscriptions/lifecycle';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/uncancelSubscription.js';

export const handler = httpHandler(
  route,
  ({ ctx, path }) => undoCancellation(ctx, path.id!),
  ({ ctx, path }) => getSubscription(ctx, path.id!),
);
