import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { BalanceChanged, EntryExists, writeLedger } from '../../db/ledger';
import { newId } from '../../ids';
import { productArchived } from '../catalog/errors';
import { assertProductUsable, productUsableCheck } from '../catalog/usable';
import { toCreditTransaction, type CreditBalanceItem, type CreditTransaction } from './credit';
import { expiryInPast } from './errors';
import { changeTime, creditChange } from './ledger';
import { newLot } from './lots';
import { bundlePrice } from './price';
import { assertCreditParties, readParties } from './read';

export interface TopupInput {
  credit_count: number;
  expires_at?: string | null;
  price_id?: string;
}

/** decisions.md has no setting for it: `credit.low_balance` fires at 10 % of the latest top-up (docs/credits.md). */
export const lowCountThreshold = (creditCount: number): number => Math.floor(creditCount / 10);

/**
 * Adds free credits (spec: the customer is not charged): a `topup` transaction and a lot holding the credits until
 * they are used or expire. The product must be a usable credit product; with `price_id`, the count must be a whole
 * number of that bundle price's packs, and `amount_excluding_tax` says what the packs are worth.
 * One writeLedger: the balance (on its version), the entry, the lot, and a check that the product is still usable.
 */
export async function topUpCredits(ctx: Ctx, customerId: string, productId: string, input: TopupInput): Promise<CreditTransaction> {
  const expiresAt = input.expires_at == null ? null : new Date(input.expires_at).toISOString();
  if (expiresAt !== null && Date.parse(expiresAt) <= ctx.clock.now().getTime()) throw expiryInPast(input.expires_at!);
  const parties = await readParties(ctx, customerId, productId);
  assertCreditParties(parties);
  if (parties.product.status === 'archived') throw productArchived(productId);
  const priced = input.price_id === undefined ? undefined : await bundlePrice(ctx, parties.product, input.price_id, input.credit_count);
  const owner = { balanceKey: parties.balanceKey, customerId, productId, name: parties.product.name };

  let balance = parties.balance;
  let attempt = 0;
  return retryOnRace(async () => {
    if (attempt++ > 0) balance = await getItem<CreditBalanceItem>(parties.balanceKey, true);
    const at = changeTime(ctx.clock.now(), balance);
    const id = newId('cdt', at.getTime());
    const lot = newLot(ctx, parties.balanceKey.pk, { id, customer_id: customerId, product_id: productId, credit_count: input.credit_count, expires_at: expiresAt, created_at: at.toISOString() });
    const { change, entries, alsoIndex } = creditChange(
      ctx,
      owner,
      balance,
      [{ type: 'topup', id, credit_count: input.credit_count, price: priced?.price, amount_excluding_tax: priced?.amount, expires_at: expiresAt, lot_id: id, source: 'api' }],
      at,
      {
        also: [{ Put: { TableName: tableName(), Item: lot, ConditionExpression: 'attribute_not_exists(pk)' } }, productUsableCheck(ctx, productId)],
        lowCountThreshold: lowCountThreshold(input.credit_count),
      },
    );
    try {
      await writeLedger(change);
    } catch (error) {
      if (error instanceof EntryExists && error.index === alsoIndex + 1) {
        await assertProductUsable(ctx, productId);
        throw productArchived(productId);
      }
      // Another item already there: only a lost race can cause it (ids are unique), so read again.
      if (error instanceof EntryExists) throw new BalanceChanged();
      throw error;
    }
    return toCreditTransaction(entries[0]!);
  });
}
