import { exportFile } from '../../shared/domain/exports/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/downloadExportFile.js';

export const handler = httpHandler(route, ({ ctx, path }) => exportFile(ctx, path.id!, Number(path.index)));
