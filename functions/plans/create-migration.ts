import type { MigrationInput } from '../../shared/domain/plans/migration';
import { createMigration } from '../../shared/domain/plans/migrate';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPlanMigration.js';

export const handler = httpHandler<MigrationInput>(route, ({ ctx, path, body }) => createMigration(ctx, path.id!, body));
