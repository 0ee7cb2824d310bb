import { updateFeature } from '../../shared/domain/entitlements/features';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateFeature.js';

export const handler = httpHandler<{ name?: string }>(route, ({ ctx, path, body }) => updateFeature(ctx, path.id!, body));
