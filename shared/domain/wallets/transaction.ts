import type { Ctx } from '../../context';
import { walletKey } from './wallet';

export type WalletTransactionType = 'credit_free' | 'credit_paid' | 'debit';

/** A ledger entry of a wallet, kept in the wallet's partition, sorted by id (ULIDs: by time). */
export interface WalletTransactionItem {
  pk: string;
  sk: string;
  _type: 'wallet_transaction';
  id: string;
  wallet_id: string;
  customer_id: string;
  type: WalletTransactionType;
  amount: number;
  balance_after: number;
  currency: string;
  comment: string | null;
  /** What caused it: a load, an auto-load, a revert of another transaction, an invoice payment… */
  source: 'load' | 'auto_load' | 'revert' | 'invoice' | 'credit_note' | 'subscription';
  reverts_transaction_id: string | null;
  reverted_by_transaction_id: string | null;
  invoice_id: string | null;
  created_at: string;
}

export const walletTransactionKey = (ctx: Ctx, walletId: string, id: string) => ({ pk: walletKey(ctx, walletId).pk, sk: `TX#${id}` });

export const signedAmount = (t: Pick<WalletTransactionItem, 'type' | 'amount'>) => (t.type === 'debit' ? -t.amount : t.amount);

export const toWalletTransaction = (t: WalletTransactionItem) => ({
  id: t.id,
  wallet_id: t.wallet_id,
  customer_id: t.customer_id,
  type: t.type,
  amount: t.amount,
  currency: t.currency,
  balance_after: t.balance_after,
  comment: t.comment,
  source: t.source,
  reverts_transaction_id: t.reverts_transaction_id,
  reverted_by_transaction_id: t.reverted_by_transaction_id,
  invoice_id: t.invoice_id,
  created_at: t.created_at,
});

export type WalletTransaction = ReturnType<typeof toWalletTransaction>;
