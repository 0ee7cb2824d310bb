import { readFeature } from '../../shared/domain/entitlements/features';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getFeature.js';

export const handler = httpHandler(route, ({ ctx, path }) => readFeature(ctx, path.id!));
