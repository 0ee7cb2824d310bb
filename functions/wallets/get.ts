import { getWallet } from '../../shared/domain/wallets/wallets';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getWallet.js';

export const handler = httpHandler(route, ({ ctx, path }) => getWallet(ctx, path.id!));
