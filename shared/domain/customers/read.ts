import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { listPage, type Page } from '../../db/pagination';
import { NotFound } from '../../errors';
import { buildFilter } from '../../schemas/list-query';
import { customerFilters } from '../../schemas/customers';
import { CUSTOMER, customerItemKey, toCustomer, type Customer, type CustomerItem } from './customer';

export const customerNotFound = (id: string) => new NotFound('customer', id);

/** Reads are strongly consistent: a customer is visible to the request right after the one that created it. */
export async function findCustomerItem(ctx: Ctx, id: string): Promise<CustomerItem> {
  const item = await getItem<CustomerItem>(customerItemKey(ctx, id), true);
  if (!item) throw customerNotFound(id);
  return item;
}

export const getCustomer = async (ctx: Ctx, id: string): Promise<Customer> => toCustomer(await findCustomerItem(ctx, id));

export const listCustomers = (ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Customer>> =>
  listPage(ctx, CUSTOMER, { ...query, filter: buildFilter(customerFilters, query) }, toCustomer);
