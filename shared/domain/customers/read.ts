import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { listPage, type ListFields, type Page } from '../../db/pagination';
import { NotFound } from '../../errors';
import { buildFilter } from '../../schemas/list-query';
import { CUSTOMER_SEARCH_FIELDS, customerFilters } from '../../schemas/list-filters';
import { CUSTOMER, customerItemKey, toCustomer, type Customer, type CustomerItem } from './customer';

export const customerNotFound = (id: string) => new NotFound('customer', id);

/** Reads are strongly consistent: a customer is visible to the request right after the one that created it. */
export async function findCustomerItem(ctx: Ctx, id: string): Promise<CustomerItem> {
  const item = await getItem<CustomerItem>(customerItemKey(ctx, id), true);
  if (!item) throw customerNotFound(id);
  return item;
}

export const getCustomer = async (ctx: Ctx, id: string): Promise<Customer> => toCustomer(await findCustomerItem(ctx, id));

/**
 * `search` is one more test on the list fields of the workspace's own index entries (as every filter here): one
 * partition read, no scan of the table and no second index.
 */
export function listCustomers(ctx: Ctx, query: { take: number; skip: number; search?: string } & Record<string, unknown>): Promise<Page<Customer>> {
  const { search, ...filters } = query;
  const tests = [buildFilter(customerFilters, filters), search === undefined ? undefined : matchesSearch(search)].filter((t) => t !== undefined);
  const filter = tests.length === 0 ? undefined : (fields: ListFields) => tests.every((test) => test(fields));
  return listPage(ctx, CUSTOMER, { ...query, filter }, toCustomer);
}

function matchesSearch(search: string): (fields: ListFields) => boolean {
  const wanted = search.toLowerCase();
  return (fields) => CUSTOMER_SEARCH_FIELDS.some((field) => fields[field] != null && String(fields[field]).toLowerCase().includes(wanted));
}
