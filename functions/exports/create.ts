import { createExport, type ExportInput } from '../../shared/domain/exports/create';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createExport.js';

export const handler = httpHandler<ExportInput>(route, ({ ctx, body }) => createExport(ctx, body));
