import type { MigrationInput } from '../../shared/domain/plans/migration';
import { previewMigration } from '../../shared/domain/plans/preview';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/previewPlanMigration.js';

export const handler = httpHandler<MigrationInput>(route, ({ ctx, path, body }) => previewMigration(ctx, path.id!, body));
