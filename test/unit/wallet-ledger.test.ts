import { makeCtx } from '../../shared/context';
import { walletChange } from '../../shared/domain/wallets/ledger';
import { addInterval, advance } from '../../shared/domain/wallets/schedule';
import type { WalletItem } from '../../shared/domain/wallets/wallet';

const ctx = makeCtx('ws_ledger', 'req');
const now = new Date('2026-05-01T00:00:00.000Z');
const wallet = (balance: number): WalletItem => ({
  pk: 'WS#ws_ledger#WAL#wal_1', sk: 'WAL', _type: 'wallet', _version: 3, id: 'wal_1', customer_id: 'cus_1', state: 'active', currency: 'EUR', balance,
  low_projected_balance_threshold: null, is_auto_load_enabled: false, auto_load_type: 'free', auto_load_amount: null, auto_load_reset: false,
  auto_load_interval: null, auto_load_next_date: null, auto_load_threshold: null, created_at: now.toISOString(), updated_at: now.toISOString(),
});

describe('walletChange', () => {
  it('chains balance_after through several movements and conditions the write on the version read', () => {
    const { change, entries } = walletChange(ctx, wallet(100), [
      { type: 'debit', amount: 100, source: 'auto_load' },
      { type: 'credit_free', amount: 1000, source: 'auto_load' },
    ], now);
    expect(entries.map((e) => e.balance_after)).toEqual([0, 1000]);
    expect(change.readVersion).toBe(3);
    expect(change.set.balance).toBe(1000);
  });

  it('never takes a wallet below zero', () => {
    expect(() => walletChange(ctx, wallet(99), [{ type: 'debit', amount: 100, source: 'invoice' }], now)).toThrow(
      expect.objectContaining({ status: 422, code: 'insufficient_wallet_balance' }),
    );
  });
});

describe('auto-load dates', () => {
  it('adds months without drifting off month ends', () => {
    const jan31 = new Date('2026-01-31T09:00:00.000Z');
    expect(addInterval(jan31, { period: 'months', count: 1 }, 1).toISOString()).toBe('2026-02-28T09:00:00.000Z');
    expect(addInterval(jan31, { period: 'months', count: 1 }, 2).toISOString()).toBe('2026-03-31T09:00:00.000Z');
    expect(addInterval(new Date('2028-02-29T00:00:00.000Z'), { period: 'years', count: 1 }, 1).toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(addInterval(jan31, { period: 'weeks', count: 2 }, 1).toISOString()).toBe('2026-02-14T09:00:00.000Z');
  });

  it('moves a date past now by whole intervals', () => {
    expect(advance('2026-01-31T00:00:00.000Z', { period: 'months', count: 1 }, new Date('2026-04-15T00:00:00.000Z'))).toBe('2026-04-30T00:00:00.000Z');
  });
});

describe('wallet events', () => {
  it('created; updated on settings only; credited and debited from new transactions', async () => {
    const { walletEvents, walletTransactionEvents } = await import('../../shared/domain/wallets/events');
    const types = (events: { type: string }[]) => events.map((e) => e.type);
    expect(types(walletEvents(undefined, wallet(0)))).toEqual(['wallet.created']);
    expect(types(walletEvents(wallet(0), { ...wallet(0), state: 'paused' }))).toEqual(['wallet.updated']);
    expect(types(walletEvents(wallet(0), { ...wallet(500), _version: 4, transaction_count: 1 }))).toEqual([]);
    const { entries } = walletChange(ctx, wallet(100), [{ type: 'credit_free', amount: 5, source: 'load' }, { type: 'debit', amount: 5, source: 'revert' }], now);
    expect(types(walletTransactionEvents(undefined, entries[0]))).toEqual(['wallet.credited']);
    expect(types(walletTransactionEvents(undefined, entries[1]))).toEqual(['wallet.debited']);
    expect(walletTransactionEvents(undefined, entries[0])[0]!.data).toMatchObject({ amount: 5, balance_after: 105 });
    expect(types(walletTransactionEvents(entries[0], { ...entries[0]!, reverted_by_transaction_id: 'walt_2' }))).toEqual([]);
  });
});
