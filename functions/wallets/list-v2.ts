import { listWallets } from '../../shared/domain/wallets/wallets';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listWalletsV2.js';

/** Hyperline lists wallets at `/v2/wallets` (docs/hyperline.md): the same list as `GET /v1/wallets`. */
export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listWallets(ctx, query));
