import { setOverride } from '../../shared/domain/entitlements/overrides';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/overrideEntitlement.js';

export const handler = httpHandler<{ value: boolean | number }>(route, ({ ctx, path, body }) => setOverride(ctx, path.id!, path.featureId!, body.value));
