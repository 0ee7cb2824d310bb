import { createFeature, type FeatureCreateInput } from '../../shared/domain/entitlements/features';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createFeature.js';

export const handler = httpHandler<FeatureCreateInput>(route, ({ ctx, body }) => createFeature(ctx, body));
