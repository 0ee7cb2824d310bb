import { createPlan, type PlanCreateInput } from '../../shared/domain/plans/write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPlan.js';

export const handler = httpHandler<PlanCreateInput>(route, ({ ctx, body }) => createPlan(ctx, body));
