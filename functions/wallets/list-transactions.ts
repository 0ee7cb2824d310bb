import { listWalletTransactions } from '../../shared/domain/wallets/operations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listWalletTransactions.js';

export const handler = httpHandler<unknown, { take: number; skip: number; type?: string }>(route, ({ ctx, path, query }) => listWalletTransactions(ctx, path.id!, query));
