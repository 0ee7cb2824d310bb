import { listConnections } from '../../shared/domain/payment-providers/connections';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listPaymentProviders.js';

export const handler = httpHandler(route, ({ ctx }) => listConnections(ctx));
