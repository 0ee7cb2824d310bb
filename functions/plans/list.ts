import { listPlans } from '../../shared/domain/plans/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listPlans.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listPlans(ctx, query));
