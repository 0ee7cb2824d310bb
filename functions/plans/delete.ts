import { deletePlan } from '../../shared/domain/plans/write';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deletePlan.js';

export const handler = httpHandler(route, ({ ctx, path }) => deletePlan(ctx, path.id!));
