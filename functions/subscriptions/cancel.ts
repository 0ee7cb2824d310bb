import { cancelSubscription, type CancelMode } from '../../shared/domain/subscriptions/cancel';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/cancelSubscription.js';

export const handler = httpHandler<{ mode?: CancelMode }>(route, ({ ctx, path, body }) => cancelSubscription(ctx, path.id!, body.mode));
