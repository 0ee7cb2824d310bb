import { createWallet } from '../../shared/domain/wallets/wallets';
import type { WalletSettings } from '../../shared/domain/wallets/wallet';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createWallet.js';

export const handler = httpHandler<WalletSettings & { customer_id: string }>(route, ({ ctx, body }) => createWallet(ctx, body));
