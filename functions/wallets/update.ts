import { updateWallet } from '../../shared/domain/wallets/wallets';
import type { WalletSettings } from '../../shared/domain/wallets/wallet';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updateWallet.js';

export const handler = httpHandler<WalletSettings>(route, ({ ctx, path, body }) => updateWallet(ctx, path.id!, body));
