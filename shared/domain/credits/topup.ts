import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { getItem, retryOnRace } from '../../db/items';
import { BalanceChanged, EntryExists, writeLedger } from '../../db/ledger';
import type { TransactItem } from '../../db/transactions';
import { newId } from '../../ids';
import { productArchived } from '../catalog/errors';
import { productUsableCheck } from '../catalog/usable';
import { customerItemKey } from '../customers/customer';
import { creditBalanceKey, toCreditTransaction, type CreditBalanceItem, type CreditTransaction } from './credit';
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
  const balanceKey = creditBalanceKey(ctx, customerId, productId);
  // The common case, a further top-up without a price, reads the balance alone: the customer and the product are
  // checked inside the transaction, and read only to explain a failed check. A first top-up, or one naming a
  // price, reads all three first.
  const known = input.price_id === undefined ? await getItem<CreditBalanceItem>(balanceKey, true) : undefined;
  const parties = known ? undefined : await readUsableParties(ctx, customerId, productId);
  const priced = input.price_id === undefined ? undefined : await bundlePrice(ctx, parties!.product, input.price_id, input.credit_count);
  const owner = { balanceKey, customerId, productId, name: parties?.product.name ?? known!.name };
  const checks = known ? steadyStateChecks(ctx, customerId, productId) : [productUsableCheck(ctx, productId)];

  let balance = known ?? parties!.balance;
  let attempt = 0;
  return retryOnRace(async () => {
    if (attempt++ > 0) balance = await getItem<CreditBalanceItem>(balanceKey, true);
    const at = changeTime(ctx.clock.now(), balance);
    const id = newId('cdt', at.getTime());
    const lot = newLot(ctx, balanceKey.pk, { id, customer_id: customerId, product_id: productId, credit_count: input.credit_count, expires_at: expiresAt, created_at: at.toISOString() });
    const { change, entries, alsoIndex } = creditChange(
      ctx,
      owner,
      balance,
      [{ type: 'topup', id, credit_count: input.credit_count, price: priced?.price, amount_excluding_tax: priced?.amount, expires_at: expiresAt, lot_id: id, source: 'api' }],
      at,
      {
        also: [{ Put: { TableName: tableName(), Item: lot, ConditionExpression: 'attribute_not_exists(pk)' } }, ...checks],
        lowCountThreshold: lowCountThreshold(input.credit_count),
      },
    );
    try {
      await writeLedger(change);
    } catch (error) {
      if (error instanceof EntryExists && error.index > alsoIndex) {
        await readUsableParties(ctx, customerId, productId); // throws the reason: 404, 409 or 422
        throw new BalanceChanged(); // the check failed on a state that has changed back: try again
      }
      // Another item already there: only a lost race can cause it (ids are unique), so read again.
      if (error instanceof EntryExists) throw new BalanceChanged();
      throw error;
    }
    return toCreditTransaction(entries[0]!);
  });
}

/** Customer and product as a top-up needs them, or the error that says why not (404, 409 deleted, 422). */
async function readUsableParties(ctx: Ctx, customerId: string, productId: string) {
  const parties = await readParties(ctx, customerId, productId);
  assertCreditParties(parties);
  if (parties.product.status === 'archived') throw productArchived(productId);
  return parties;
}

/** What a top-up on an existing balance checks inside its transaction instead of reading first. */
export const steadyStateChecks = (ctx: Ctx, customerId: string, productId: string): TransactItem[] => [
  customerLiveCheck(ctx, customerId),
  creditProductCheck(ctx, productId),
];

const customerLiveCheck = (ctx: Ctx, customerId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: customerItemKey(ctx, customerId),
    ConditionExpression: 'attribute_exists(pk) AND attribute_type(deleted_at, :null)',
    ExpressionAttributeValues: { ':null': 'NULL' },
  },
});

/** The product is an active credit product (the type never changes, but the check costs nothing in the transaction). */
const creditProductCheck = (ctx: Ctx, productId: string): TransactItem => {
  const usable = productUsableCheck(ctx, productId).ConditionCheck!;
  return {
    ConditionCheck: {
      ...usable,
      ConditionExpression: `${usable.ConditionExpression} AND #type = :credit`,
      ExpressionAttributeNames: { ...usable.ExpressionAttributeNames, '#type': 'type' },
      ExpressionAttributeValues: { ...usable.ExpressionAttributeValues, ':credit': 'credit' },
    },
  };
};
