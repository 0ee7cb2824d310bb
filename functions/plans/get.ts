import { readPlan } from '../../shared/domain/plans/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getPlan.js';

export const handler = httpHandler(route, ({ ctx, path }) => readPlan(ctx, path.id!));
