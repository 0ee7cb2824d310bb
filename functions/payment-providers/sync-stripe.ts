import { syncStripe } from '../../shared/domain/payments/stripe/sync';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/syncStripe.js';

export const handler = httpHandler(route, ({ ctx }) => syncStripe(ctx));
