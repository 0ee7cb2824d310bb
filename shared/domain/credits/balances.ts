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

/**
 * `GET /v1/customers/credits` (Hyperline's listing of balances): one customer's, as the route above, since balances
 * are indexed per customer; with `product_id`, that product's balance alone (an empty page when there is none).
 */
export async function listCreditBalancesOf(ctx: Ctx, query: { customer_id: string; product_id?: string; take: number; skip: number }): Promise<Page<CreditBalance>> {
  if (query.product_id === undefined) return listCreditBalances(ctx, query.customer_id, query);
  const { product, balance } = await readParties(ctx, query.customer_id, query.product_id);
  const data = balance && query.skip === 0 && query.take > 0 ? [toCreditBalance(balance, product.name)] : [];
  return { meta: { total: balance ? 1 : 0, taken: data.length, skipped: query.skip, approximateCount: false }, data };
}
