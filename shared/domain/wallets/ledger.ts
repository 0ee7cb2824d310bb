import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { ledgerItems, writeLedger, type LedgerChange } from '../../db/ledger';
import { newId } from '../../ids';
import type { TransactItem } from '../../db/transactions';
import { balanceTooLarge, insufficientBalance } from './errors';
import { scheduleAttributes } from './schedule';
import { signedAmount, walletTransactionKey, type WalletTransactionItem, type WalletTransactionType } from './transaction';
import { walletKey, type WalletItem } from './wallet';

export interface Movement {
  /** Given when another item of the same transaction must name this entry (a revert marks its original). */
  id?: string;
  type: WalletTransactionType;
  amount: number;
  source: WalletTransactionItem['source'];
  comment?: string | null;
  reverts_transaction_id?: string | null;
  invoice_id?: string | null;
}

/**
 * The ledger change for one or more movements of a wallet, in order: each entry's `balance_after` follows the
 * previous one, and the balance may never go below zero (422 `insufficient_wallet_balance`) nor past 2^53 − 1 (422
 * `wallet_balance_too_large`: amounts stay exact integers). The balance item is written on the version read, so a
 * concurrent change makes this one retry from the new balance.
 */
export function walletChange(ctx: Ctx, wallet: WalletItem, movements: Movement[], now: Date, also: TransactItem[] = []) {
  let balance = wallet.balance;
  const entries: WalletTransactionItem[] = movements.map((m) => {
    const before = balance;
    balance += signedAmount(m);
    if (balance < 0) throw insufficientBalance(before, m.amount);
    if (balance > Number.MAX_SAFE_INTEGER) throw balanceTooLarge(before, m.amount);
    const id = m.id ?? newId('walt', now.getTime());
    return {
      ...walletTransactionKey(ctx, wallet.id, id),
      _type: 'wallet_transaction',
      id,
      wallet_id: wallet.id,
      customer_id: wallet.customer_id,
      type: m.type,
      amount: m.amount,
      balance_after: balance,
      currency: wallet.currency,
      comment: m.comment ?? null,
      source: m.source,
      reverts_transaction_id: m.reverts_transaction_id ?? null,
      reverted_by_transaction_id: null,
      invoice_id: m.invoice_id ?? null,
      created_at: now.toISOString(),
    };
  });
  const after: WalletItem = { ...wallet, balance, transaction_count: (wallet.transaction_count ?? 0) + entries.length } as WalletItem;
  const schedule = scheduleAttributes(ctx, after, now);
  const change: LedgerChange = {
    balanceKey: walletKey(ctx, wallet.id),
    readVersion: wallet._version,
    // The auto-load date moves with the balance when an auto-load made this change.
    set: {
      balance,
      transaction_count: (wallet.transaction_count ?? 0) + entries.length,
      auto_load_next_date: wallet.auto_load_next_date,
      updated_at: now.toISOString(),
      ...schedule.set,
    },
    remove: schedule.remove,
    entry: entries[0] as unknown as LedgerChange['entry'],
    also: [...entries.slice(1).map((item): TransactItem => ({ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } })), ...also],
  };
  return { change, entries, wallet: { ...after, _version: wallet._version + 1, updated_at: now.toISOString() } };
}

export async function applyWalletChange(ctx: Ctx, wallet: WalletItem, movements: Movement[], also: TransactItem[] = []) {
  const result = walletChange(ctx, wallet, movements, ctx.clock.now(), also);
  await writeLedger(result.change);
  return result;
}

/** For invoices (issue 6): the items that pay `amount` from the wallet inside the invoice's own transaction. */
export function walletDebitItems(ctx: Ctx, wallet: WalletItem, amount: number, invoiceId: string): TransactItem[] {
  return ledgerItems(walletChange(ctx, wallet, [{ type: 'debit', amount, source: 'invoice', invoice_id: invoiceId }], ctx.clock.now()).change);
}
