import type { CreateSubscriptionBody } from '../../shared/domain/subscriptions/create';
import { previewSubscriptionCreation } from '../../shared/domain/subscriptions/preview';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/previewSubscription.js';

export const handler = httpHandler<CreateSubscriptionBody>(route, ({ ctx, body }) => previewSubscriptionCreation(ctx, body));
