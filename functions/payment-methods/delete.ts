import { removePaymentMethod } from '../../shared/domain/payment-methods/remove';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deletePaymentMethod.js';

export const handler = httpHandler(route, ({ ctx, path }) => removePaymentMethod(ctx, path.id!, path.pmId!));
