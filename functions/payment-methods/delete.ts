import { deletePaymentMethod } from '../../shared/domain/payment-methods/payment-methods';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deletePaymentMethod.js';

export const handler = httpHandler(route, ({ ctx, path }) => deletePaymentMethod(ctx, path.id!, path.pmId!));
