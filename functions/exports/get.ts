import { getExport } from '../../shared/domain/exports/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getExport.js';

export const handler = httpHandler(route, ({ ctx, path }) => getExport(ctx, path.id!));
