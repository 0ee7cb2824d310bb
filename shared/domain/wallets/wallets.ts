import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, putIfUnchanged, retryOnRace } from '../../db/items';
import { listIndexKeys } from '../../db/keys';
import { counterUpdate, listPage, type Page } from '../../db/pagination';
import { ConditionFailed, transactWrite } from '../../db/transactions';
import { InvalidRequest, RuleViolation } from '../../errors';
import { newId } from '../../ids';
import { buildFilter } from '../../schemas/list-query';
import { walletFilters } from '../../schemas/list-filters';
import { currencyLockItem } from '../customers/currency-lock';
import { findCustomerItem } from '../customers/read';
import { walletNotFound } from './errors';
import { scheduleAttributes } from './schedule';
import { WALLET, toWallet, walletKey, walletListFields, walletOfCustomerKey, type Wallet, type WalletItem, type WalletSettings } from './wallet';

export async function findWalletItem(ctx: Ctx, id: string): Promise<WalletItem> {
  const item = await getItem<WalletItem>(walletKey(ctx, id), true);
  if (!item) throw walletNotFound(id);
  return item;
}

/** The customer's wallet (one per customer, found through its marker), or undefined when it has none. */
export async function findCustomerWallet(ctx: Ctx, customerId: string): Promise<WalletItem | undefined> {
  const marker = await getItem<{ wallet_id: string }>(walletOfCustomerKey(ctx, customerId), true);
  return marker && getItem<WalletItem>(walletKey(ctx, marker.wallet_id), true);
}

export const getWallet = async (ctx: Ctx, id: string): Promise<Wallet> => toWallet(await findWalletItem(ctx, id));

export const listWallets = (ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Wallet>> =>
  listPage(ctx, WALLET, { ...query, filter: buildFilter(walletFilters, query) }, (item: WalletItem) => toWallet(item));

/** Auto-load needs an amount, and something to wait for: a next date (with its interval) or a threshold. */
function assertAutoLoad(w: WalletItem): void {
  if (!w.is_auto_load_enabled) return;
  const problems: { path: string; message: string }[] = [];
  if (!w.auto_load_amount) problems.push({ path: 'body.auto_load_amount', message: 'is required (a positive amount) when auto-load is enabled' });
  if (!w.auto_load_next_date && w.auto_load_threshold === null) {
    problems.push({ path: 'body.auto_load_next_date', message: 'or auto_load_threshold is required when auto-load is enabled' });
  }
  if (w.auto_load_next_date && !w.auto_load_interval) problems.push({ path: 'body.auto_load_interval', message: 'is required with auto_load_next_date' });
  if (problems.length > 0) throw new InvalidRequest(`Invalid body: ${problems[0]!.path} ${problems[0]!.message}.`, problems);
}

/**
 * One wallet per customer, in the customer's currency. Creating it locks that currency (decisions.md), in the
 * same transaction as the wallet and the one-per-customer marker.
 */
export async function createWallet(ctx: Ctx, input: WalletSettings & { customer_id: string }): Promise<Wallet> {
  return retryOnRace(async () => {
    const customer = await findCustomerItem(ctx, input.customer_id).catch(() => {
      throw new RuleViolation('customer_not_found', `No customer with id '${input.customer_id}'.`);
    });
    if (customer.deleted_at) throw new RuleViolation('customer_not_found', `Customer '${customer.id}' is deleted.`);
    if (!customer.currency) throw new RuleViolation('customer_currency_missing', `Customer '${customer.id}' has no currency: set one before creating its wallet.`);
    const id = newId('wal');
    const now = ctx.clock.now();
    const { customer_id: _c, ...settings } = input;
    const wallet: WalletItem = {
      ...walletKey(ctx, id),
      ...listIndexKeys(ctx, WALLET, now.toISOString(), id),
      _type: 'wallet',
      _version: 0,
      id,
      customer_id: customer.id,
      state: 'active',
      currency: customer.currency,
      balance: 0,
      low_projected_balance_threshold: null,
      is_auto_load_enabled: false,
      auto_load_type: 'free',
      auto_load_amount: null,
      auto_load_reset: false,
      auto_load_interval: null,
      auto_load_next_date: null,
      auto_load_threshold: null,
      ...settings,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    assertAutoLoad(wallet);
    wallet.lf = walletListFields(wallet);
    Object.assign(wallet, scheduleAttributes(ctx, wallet, now).set);
    try {
      await transactWrite([
        { Put: { TableName: tableName(), Item: wallet, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName(), Item: { ...walletOfCustomerKey(ctx, customer.id), _type: 'wallet_of_customer', wallet_id: id }, ConditionExpression: 'attribute_not_exists(pk)' } },
        counterUpdate(ctx, WALLET, 1),
        currencyLockItem(ctx, customer.id, 'wallet', customer.currency),
      ]);
    } catch (error) {
      if (error instanceof ConditionFailed && error.index === 1) {
        throw new RuleViolation('wallet_exists', `Customer '${customer.id}' already has a wallet: a customer has one wallet.`);
      }
      throw error; // index 3: the currency changed meanwhile; retryOnRace reads the customer again
    }
    return toWallet(wallet);
  });
}

/** The state (active, paused) and the auto-load settings. The balance moves only through the ledger. */
export async function updateWallet(ctx: Ctx, id: string, input: WalletSettings): Promise<Wallet> {
  return retryOnRace(async () => {
    const current = await findWalletItem(ctx, id);
    const now = ctx.clock.now();
    const next: WalletItem = { ...current, ...input, updated_at: now.toISOString() };
    assertAutoLoad(next);
    next.lf = walletListFields(next);
    const schedule = scheduleAttributes(ctx, next, now);
    for (const name of schedule.remove) delete (next as unknown as Record<string, unknown>)[name];
    return toWallet(await putIfUnchanged({ ...next, ...schedule.set }, current._version));
  });
}
