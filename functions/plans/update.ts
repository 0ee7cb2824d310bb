import { updatePlan } from '../../shared/domain/plans/write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updatePlan.js';

export const handler = httpHandler<{ name?: string; description?: string | null }>(route, ({ ctx, path, body }) => updatePlan(ctx, path.id!, body));
