import type { Ctx } from '../../context';
import type { StoredItem } from '../../db/items';
import { entityKey } from '../../db/keys';

export const WALLET = 'WAL';

export type Interval = { period: 'days' | 'weeks' | 'months' | 'years'; count: number };

export interface WalletItem extends StoredItem {
  id: string;
  customer_id: string;
  state: 'active' | 'paused';
  currency: string;
  balance: number;
  low_projected_balance_threshold: number | null;
  is_auto_load_enabled: boolean;
  auto_load_type: 'free' | 'paid';
  auto_load_amount: number | null;
  auto_load_reset: boolean;
  auto_load_interval: Interval | null;
  auto_load_next_date: string | null;
  auto_load_threshold: number | null;
  /** How many ledger entries the wallet has: the total of its transaction list. */
  transaction_count?: number;
  created_at: string;
  updated_at: string;
}

export type WalletSettings = Partial<
  Pick<
    WalletItem,
    | 'state' | 'low_projected_balance_threshold' | 'is_auto_load_enabled' | 'auto_load_type' | 'auto_load_amount' | 'auto_load_reset'
    | 'auto_load_interval' | 'auto_load_next_date' | 'auto_load_threshold'
  >
>;

export const walletKey = (ctx: Ctx, id: string) => entityKey(ctx, WALLET, id);
/** One wallet per customer: this item is created with the wallet, on the condition that it does not exist. */
export const walletOfCustomerKey = (ctx: Ctx, customerId: string) => entityKey(ctx, 'WALLET_OF', customerId);

export const walletListFields = (w: WalletItem) => ({ customer_id: w.customer_id, state: w.state });

/**
 * `projected_balance` is the balance minus what is already due to be paid from the wallet. Until invoices exist
 * (issue 6) nothing is due, so it equals the balance; invoices pass what they owe here.
 */
export function toWallet(w: WalletItem, dueFromWallet = 0) {
  return {
    id: w.id,
    customer_id: w.customer_id,
    state: w.state,
    currency: w.currency,
    balance: { amount: w.balance },
    projected_balance: { amount: w.balance - dueFromWallet },
    created_at: w.created_at,
    low_projected_balance_threshold: w.low_projected_balance_threshold,
    is_auto_load_enabled: w.is_auto_load_enabled,
    auto_load_type: w.auto_load_type,
    auto_load_amount: w.auto_load_amount,
    auto_load_reset: w.auto_load_reset,
    auto_load_interval: w.auto_load_interval,
    auto_load_next_date: w.auto_load_next_date,
    auto_load_threshold: w.auto_load_threshold,
  };
}

export type Wallet = ReturnType<typeof toWallet>;
