import { setOverride } from '../../shared/domain/entitlements/overrides';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/removeEntitlementOverride.js';

export const handler = httpHandler(route, ({ ctx, path }) => setOverride(ctx, path.id!, path.featureId!, null));
