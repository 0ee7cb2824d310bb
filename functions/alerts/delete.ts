import { deleteAlert } from '../../shared/domain/alerts/alert';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deleteAlert.js';

export const handler = httpHandler(route, ({ ctx, path }) => deleteAlert(ctx, path.id!));
