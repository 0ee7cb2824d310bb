import { readMigration } from '../../shared/domain/plans/migrate';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getPlanMigration.js';

export const handler = httpHandler(route, ({ ctx, path }) => readMigration(ctx, path.id!));
