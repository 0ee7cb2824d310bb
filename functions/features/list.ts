import { listFeatures } from '../../shared/domain/entitlements/features';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listFeatures.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listFeatures(ctx, query));
