import { listCreditBalances } from '../../shared/domain/credits/balances';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listCustomerCredits.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, path, query }) => listCreditBalances(ctx, path.id!, query));
