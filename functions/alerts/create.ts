import { createAlert, type AlertInput } from '../../shared/domain/alerts/alert';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createAlert.js';

export const handler = httpHandler<AlertInput>(route, ({ ctx, body }) => createAlert(ctx, body));
