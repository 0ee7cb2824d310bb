import { createSubscription, type CreateSubscriptionBody } from '../../shared/domain/subscriptions/create';
import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { lastCreated } from '../../shared/http/idempotency';
import { route } from '../../shared/schemas/generated/createSubscription.js';

export const handler = httpHandler<CreateSubscriptionBody>(
  route,
  ({ ctx, body }) => createSubscription(ctx, body),
  async ({ ctx }, created) => getSubscription(ctx, (await lastCreated<{ id: string }>(created, 'subscription')).id),
);
