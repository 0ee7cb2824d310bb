import { getWallet } from '../../shared/domain/wallets/wallets';
import { loadFromRequest, type LoadRequest } from '../../shared/domain/hyperline/wallet-load-request';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/loadWallet.js';

export const handler = httpHandler<LoadRequest>(
  route,
  ({ ctx, path, body }) => loadFromRequest(ctx, path.id!, body),
  ({ ctx, path }) => getWallet(ctx, path.id!),
);
