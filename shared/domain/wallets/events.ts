import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toWalletTransaction, type WalletTransactionItem } from './transaction';
import { toWallet, type WalletItem } from './wallet';

/**
 * `wallet.created`, and `wallet.updated` when its settings or state change. Balance moves are told by the
 * transactions' events (`wallet.credited` / `wallet.debited`), not as updates of the wallet.
 */
export function walletEvents(before: WalletItem | undefined, after: WalletItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toWallet(after);
  if (!before) return [{ type: 'wallet.created', data }];
  const settings = (w: WalletItem) => ({ ...toWallet(w), balance: null, projected_balance: null, updated_at: '' });
  return changedPublicly(settings(before), settings(after)) ? [{ type: 'wallet.updated', data }] : [];
}

/** A new ledger entry: `wallet.credited` for credits, `wallet.debited` for debits; data is the transaction. */
export function walletTransactionEvents(before: WalletTransactionItem | undefined, after: WalletTransactionItem | undefined): EventDraft[] {
  if (before || !after) return [];
  return [{ type: after.type === 'debit' ? 'wallet.debited' : 'wallet.credited', data: toWalletTransaction(after) }];
}
