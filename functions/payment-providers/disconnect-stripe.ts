import { disconnectStripe } from '../../shared/domain/payment-providers/connections';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/disconnectStripe.js';

export const handler = httpHandler(route, ({ ctx }) => disconnectStripe(ctx));
