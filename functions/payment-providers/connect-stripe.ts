import { connectStripe, type StripeConnectionInput } from '../../shared/domain/payment-providers/connect';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/connectStripe.js';

export const handler = httpHandler<StripeConnectionInput>(route, ({ ctx, body }) => connectStripe(ctx, body));
