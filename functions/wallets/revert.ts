import { toWalletTransaction, type WalletTransactionItem } from '../../shared/domain/wallets/transaction';
import { lastCreated } from '../../shared/http/idempotency';
import { revertTransaction } from '../../shared/domain/wallets/operations';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/revertWalletTransaction.js';

export const handler = httpHandler(
  route,
  ({ ctx, path }) => revertTransaction(ctx, path.id!, path.transactionId!),
  async (_input, created) => toWalletTransaction(await lastCreated<WalletTransactionItem>(created, 'wallet_transaction')),
);
