import { listPaymentMethods } from '../../shared/domain/payment-methods/payment-methods';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listPaymentMethods.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, path, query }) => listPaymentMethods(ctx, path.id!, query));
