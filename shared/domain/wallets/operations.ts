import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { ledgerItems } from '../../db/ledger';
import { queryItems } from '../../db/query';
import { getItem, retryOnRace, versionCondition } from '../../db/items';
import type { TransactItem } from '../../db/transactions';
import { newId } from '../../ids';
import { alreadyReverted, balanceTooLarge, transactionNotFound } from './errors';
import { createInvoice } from '../invoices/create';
import { walletLoadLine } from '../invoices/wallet-load-line';
import { applyWalletChange, walletChange } from './ledger';
import { toWalletTransaction, walletTransactionKey, type WalletTransaction, type WalletTransactionItem } from './transaction';
import { advance, scheduleAttributes } from './schedule';
import { toWallet, walletKey, type Wallet, type WalletItem } from './wallet';
import { findWalletItem } from './wallets';

/**
 * Loads a wallet. A free load credits it at once (`credit_free`). A paid load must be paid first: it is recorded as
 * a pending load, which the invoices issue turns into a `to_pay` invoice and credits (`credit_paid`) once paid.
 * A paused wallet accepts loads.
 */
export async function loadWallet(ctx: Ctx, id: string, input: { type: 'free' | 'paid'; amount: number; comment?: string | null }): Promise<Wallet> {
  if (input.type === 'paid') {
    const wallet = await findWalletItem(ctx, id);
    if (wallet.balance + input.amount > Number.MAX_SAFE_INTEGER) throw balanceTooLarge(wallet.balance, input.amount);
    await invoicePaidLoad(ctx, wallet, input.amount, input.comment ?? null, 'load');
    return toWallet(wallet);
  }
  return retryOnRace(async () => {
    const wallet = await findWalletItem(ctx, id);
    const result = await applyWalletChange(ctx, wallet, [{ type: 'credit_free', amount: input.amount, source: 'load', comment: input.comment }]);
    return toWallet(result.wallet);
  });
}

/** A paid load waiting for its invoice: `WS#<ws>#WAL#<id>` / `LOAD#<id>`. */
function pendingLoad(ctx: Ctx, walletId: string, loadId: string, amount: number, comment: string | null, source: 'load' | 'auto_load'): TransactItem {
  const item = { pk: walletKey(ctx, walletId).pk, sk: `LOAD#${loadId}`, _type: 'wallet_pending_load', id: loadId, wallet_id: walletId, amount, comment, source, status: 'pending', created_at: ctx.clock.now().toISOString() };
  return { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}

/**
 * A paid load (decisions.md): a `to_pay` invoice for the amount, written in one transaction with the pending load it
 * pays for (and `also`, e.g. the wallet's next auto-load date). Paying that invoice credits the wallet.
 */
async function invoicePaidLoad(ctx: Ctx, wallet: WalletItem, amount: number, comment: string | null, source: 'load' | 'auto_load', also: TransactItem[] = []) {
  const loadId = newId('wld');
  return createInvoice(
    ctx,
    { customer_id: wallet.customer_id, currency: wallet.currency, status: 'to_pay' },
    { lines: [walletLoadLine(amount, comment)], taxScheme: 'not_eligible', walletLoad: { wallet_id: wallet.id, load_id: loadId }, continuing: source === 'auto_load', also: [pendingLoad(ctx, wallet.id, loadId, amount, comment, source), ...also] },
  );
}

/**
 * The items that credit a paid load once its invoice is paid, for the transaction that settles the invoice: the
 * load's status moves from pending to paid (its condition), so a load is credited once.
 */
export async function paidLoadCreditItems(ctx: Ctx, walletId: string, loadId: string, invoiceId: string): Promise<TransactItem[]> {
  const wallet = await findWalletItem(ctx, walletId);
  const load = await getItem<{ amount: number; comment: string | null }>({ pk: wallet.pk, sk: `LOAD#${loadId}` }, true);
  if (!load) throw transactionNotFound(loadId);
  const settle: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: { pk: wallet.pk, sk: `LOAD#${loadId}` },
      UpdateExpression: 'SET #status = :paid, invoice_id = :invoice',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':paid': 'paid', ':pending': 'pending', ':invoice': invoiceId },
    },
  };
  const movement = { type: 'credit_paid' as const, amount: load.amount, source: 'load' as const, comment: load.comment, invoice_id: invoiceId };
  return ledgerItems(walletChange(ctx, wallet, [movement], ctx.clock.now(), [settle]).change);
}

/**
 * Reverts a transaction with its opposite (a credit is taken back by a debit, a debit given back by a free
 * credit), once: the original is marked in the same transaction. Taking back more than the balance is a 422.
 */
export async function revertTransaction(ctx: Ctx, walletId: string, transactionId: string): Promise<WalletTransaction> {
  return retryOnRace(async () => {
    const wallet = await findWalletItem(ctx, walletId);
    const original = await getItem<WalletTransactionItem>(walletTransactionKey(ctx, wallet.id, transactionId), true);
    if (!original) throw transactionNotFound(transactionId);
    if (original.reverted_by_transaction_id || original.reverts_transaction_id) throw alreadyReverted(transactionId);
    const mark = (revertId: string): TransactItem => ({
      Update: {
        TableName: tableName(),
        Key: walletTransactionKey(ctx, wallet.id, transactionId),
        UpdateExpression: 'SET reverted_by_transaction_id = :revert',
        ConditionExpression: 'attribute_type(reverted_by_transaction_id, :null)',
        ExpressionAttributeValues: { ':revert': revertId, ':null': 'NULL' },
      },
    });
    const revertId = newId('walt', ctx.clock.now().getTime());
    const type = original.type === 'debit' ? 'credit_free' : 'debit';
    const movement = { id: revertId, type, amount: original.amount, source: 'revert', reverts_transaction_id: original.id } as const;
    const result = await applyWalletChange(ctx, wallet, [movement], [mark(revertId)]);
    return toWalletTransaction(result.entries[0]!);
  });
}

/** The wallet's transactions, newest first, with take/skip and an optional `type` filter. */
export async function listWalletTransactions(ctx: Ctx, walletId: string, query: { take: number; skip: number; type?: string }) {
  const wallet = await findWalletItem(ctx, walletId);
  const { items } = await queryItems<WalletTransactionItem>(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tx)',
      ExpressionAttributeValues: { ':pk': wallet.pk, ':tx': 'TX#' },
      ScanIndexForward: false,
    },
    (read) => query.type === undefined && read.length >= query.skip + query.take,
  );
  const matching = query.type ? items.filter((t) => t.type === query.type) : items;
  const data = matching.slice(query.skip, query.skip + query.take).map(toWalletTransaction);
  const total = query.type ? matching.length : (wallet.transaction_count ?? 0);
  return { meta: { total, taken: data.length, skipped: query.skip, approximateCount: false }, data };
}

/**
 * The scheduled auto-load of one wallet: due on its date (the date then moves on by its interval) or when its
 * balance is under its threshold. A free auto-load credits the wallet (after emptying it when `auto_load_reset`);
 * a paid one records a pending load. Safe to run twice: the balance version makes a second run start over and find
 * nothing due.
 */
export async function autoLoadWallet(ctx: Ctx, walletId: string): Promise<'loaded' | 'nothing'> {
  return retryOnRace(async () => {
    const wallet = await getItem<WalletItem>(walletKey(ctx, walletId), true);
    if (!wallet || !wallet.is_auto_load_enabled || !wallet.auto_load_amount) return 'nothing';
    const now = ctx.clock.now();
    const byDate = wallet.auto_load_next_date !== null && Date.parse(wallet.auto_load_next_date) <= now.getTime();
    const byThreshold = wallet.auto_load_threshold !== null && wallet.balance < wallet.auto_load_threshold;
    if (!byDate && !byThreshold) return 'nothing';
    const nextDate = byDate && wallet.auto_load_interval ? advance(wallet.auto_load_next_date!, wallet.auto_load_interval, now) : wallet.auto_load_next_date;
    const moved = { ...wallet, auto_load_next_date: nextDate };
    if (wallet.auto_load_type === 'paid') {
      // No money moves yet: the pending load and the wallet's next date are written together, on its version.
      const schedule = scheduleAttributes(ctx, moved, now);
      const next = { ...moved, updated_at: now.toISOString(), _version: wallet._version + 1, ...schedule.set };
      for (const name of schedule.remove) delete (next as Record<string, unknown>)[name];
      await invoicePaidLoad(ctx, wallet, wallet.auto_load_amount, 'auto-load', 'auto_load', [
        { Put: { TableName: tableName(), Item: next, ...versionCondition(wallet._version) } },
      ]);
      return 'loaded';
    }
    const empty = wallet.auto_load_reset && wallet.balance > 0 ? [{ type: 'debit' as const, amount: wallet.balance, source: 'auto_load' as const, comment: 'auto-load reset' }] : [];
    await applyWalletChange(ctx, moved, [...empty, { type: 'credit_free', amount: wallet.auto_load_amount, source: 'auto_load', comment: 'auto-load' }], []);
    return 'loaded';
  });
}
