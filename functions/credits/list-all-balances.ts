import { listCreditBalancesOf } from '../../shared/domain/credits/balances';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listCreditBalances.js';

export const handler = httpHandler<unknown, { customer_id: string; product_id?: string; take: number; skip: number }>(route, ({ ctx, query }) => listCreditBalancesOf(ctx, query));
