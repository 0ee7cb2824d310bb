import { createPaymentMethod, type PaymentMethodInput } from '../../shared/domain/payment-methods/create';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPaymentMethod.js';

export const handler = httpHandler<PaymentMethodInput>(route, ({ ctx, path, body }) => createPaymentMethod(ctx, path.id!, body));
