import { getWallet } from '../../shared/domain/wallets/wallets';
import { loadWallet } from '../../shared/domain/wallets/operations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/loadWallet.js';

export const handler = httpHandler<{ type: 'free' | 'paid'; amount: number; comment?: string | null }>(
  route,
  ({ ctx, path, body }) => loadWallet(ctx, path.id!, body),
  ({ ctx, path }) => getWallet(ctx, path.id!),
);
