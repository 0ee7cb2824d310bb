import { listWallets } from '../../shared/domain/wallets/wallets';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listWallets.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listWallets(ctx, query));
