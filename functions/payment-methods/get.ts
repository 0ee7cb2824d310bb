import { getPaymentMethod } from '../../shared/domain/payment-methods/payment-methods';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getPaymentMethod.js';

export const handler = httpHandler(route, ({ ctx, path }) => getPaymentMethod(ctx, path.id!, path.pmId!));
