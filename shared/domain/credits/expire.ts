import type { Ctx } from '../../context';
import { retryOnRace } from '../../db/items';
import type { Key } from '../../db/keys';
import { BalanceChanged, EntryExists, writeLedger } from '../../db/ledger';
import { CREDIT, isLotKey, type CreditBalanceItem, type CreditLotItem } from './credit';
import { changeTime, creditChange } from './ledger';
import { expireItem, isDue } from './lots';
import { getConsistently } from './read';

export { CREDIT_LOT } from './credit';

/**
 * The scheduler's credit work: the lot at `lotKey` (a key read from the scheduling index, gsi4, kind `credit_lot`),
 * if past its `expires_at` with credits left, gets an `expiration` transaction for what remains: ONE writeLedger
 * (balance −remaining on its version, the entry, the lot deleted on the `remaining` read, which also takes it out
 * of the index). Safe to call twice or while a usage runs: the loser of a race reads again, then finds the lot
 * gone (→ 'nothing') or smaller (→ expires what is left). Never drives the balance below zero.
 */
export async function expireCreditLot(ctx: Ctx, lotKey: Key): Promise<'expired' | 'nothing'> {
  if (!lotKey.pk.startsWith(`WS#${ctx.workspaceId}#${CREDIT}#`) || !isLotKey(lotKey)) {
    throw new Error(`Not a credit lot of workspace ${ctx.workspaceId}: ${lotKey.pk} / ${lotKey.sk}`);
  }
  const balanceKey = { pk: lotKey.pk, sk: CREDIT };
  return retryOnRace(async () => {
    const [balance, lot] = (await getConsistently([balanceKey, { pk: lotKey.pk, sk: lotKey.sk }])) as [CreditBalanceItem | undefined, CreditLotItem | undefined];
    if (!balance || !lot || lot.remaining <= 0) return 'nothing';
    // BatchGetItem reads the two items one by one: a usage committing between them shows a lot larger than the
    // balance. That is a torn read, not a state: read again (the write is conditioned on both anyway).
    if (lot.remaining > balance.balance) throw new BalanceChanged();
    const at = changeTime(ctx.clock.now(), balance);
    if (!isDue(lot, at)) return 'nothing';
    const { change } = creditChange(
      ctx,
      { balanceKey, customerId: balance.customer_id, productId: balance.product_id },
      balance,
      [{ type: 'expiration', credit_count: lot.remaining, expires_at: lot.expires_at, lot_id: lot.id, source: 'system' }],
      at,
      { also: [expireItem(lot, at.toISOString())] },
    );
    try {
      await writeLedger(change);
    } catch (error) {
      if (error instanceof EntryExists) throw new BalanceChanged();
      throw error;
    }
    return 'expired' as const;
  });
}
