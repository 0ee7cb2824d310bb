import { readPlanVersion } from '../../shared/domain/plans/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getPlanVersion.js';

export const handler = httpHandler(route, ({ ctx, path }) => readPlanVersion(ctx, path.id!));
