import type { Ctx } from '../../context';
import { listPage, type Page } from '../../db/pagination';
import { findCustomerItem } from '../customers/read';
import { CREDIT, toCreditBalance, type CreditBalance, type CreditBalanceItem } from './credit';
import { creditBalanceNotFound } from './errors';
import { readParties } from './read';

/** One balance: customer, product and balance in one BatchGetItem. 404 until the first top-up. */
export async function getCreditBalance(ctx: Ctx, customerId: string, productId: string): Promise<CreditBalance> {
  const { product, balance } = await readParties(ctx, customerId, productId);
  if (!balance) throw creditBalanceNotFound(productId);
  return toCreditBalance(balance, product.name);
}

/**
 * The customer's balances, one per credit product ever topped up, oldest first: the customer's partition of the
 * keys-only parent index (gsi3) and its counter, like the price configurations of a product. Never a scan.
 */
export async function listCreditBalances(ctx: Ctx, customerId: string, query: { take: number; skip: number }): Promise<Page<CreditBalance>> {
  const [, page] = await Promise.all([
    findCustomerItem(ctx, customerId),
    listPage(ctx, CREDIT, { take: query.take, skip: query.skip, parent: { field: 'customer_id', value: customerId } }, (item: CreditBalanceItem) => toCreditBalance(item)),
  ]);
  return page;
}
