import { getSubscription } from '../../shared/domain/subscriptions/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getSubscription.js';

export const handler = httpHandler(route, ({ ctx, path }) => getSubscription(ctx, path.id!));
