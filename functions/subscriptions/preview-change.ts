import { previewSubscriptionChange, type ChangeInput } from '../../shared/domain/subscriptions/change';
import type { SubscriptionProductInput } from '../../shared/domain/subscriptions/prepare';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/previewSubscriptionChange.js';

export const handler = httpHandler<ChangeInput & { products: SubscriptionProductInput[] }>(route, ({ ctx, path, body }) => previewSubscriptionChange(ctx, path.id!, body));
