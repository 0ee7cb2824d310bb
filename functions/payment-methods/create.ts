import { createPaymentMethod, type PaymentMethodInput } from '../../shared/domain/payment-methods/payment-methods';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPaymentMethod.js';

export const handler = httpHandler<PaymentMethodInput>(route, ({ ctx, path, body }) => createPaymentMethod(ctx, path.id!, body));
