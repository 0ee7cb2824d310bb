import { listCreditTransactions } from '../../shared/domain/credits/transactions';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listCustomerCreditTransactions.js';

export const handler = httpHandler<unknown, { take: number; skip: number } & Record<string, unknown>>(route, ({ ctx, path, query }) =>
  listCreditTransactions(ctx, path.id!, path.productId!, query),
);
