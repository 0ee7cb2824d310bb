import { getAlert } from '../../shared/domain/alerts/alert';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getAlert.js';

export const handler = httpHandler(route, ({ ctx, path }) => getAlert(ctx, path.id!));
