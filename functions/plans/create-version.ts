import { createPlanVersion, type PlanVersionInput } from '../../shared/domain/plans/write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPlanVersion.js';

export const handler = httpHandler<PlanVersionInput>(route, ({ ctx, path, body }) => createPlanVersion(ctx, path.id!, body));
