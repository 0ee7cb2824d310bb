import { listAlerts } from '../../shared/domain/alerts/alert';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listAlerts.js';

export const handler = httpHandler(route, ({ ctx }) => listAlerts(ctx));
