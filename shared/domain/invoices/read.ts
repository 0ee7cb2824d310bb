import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { counterKey } from '../../db/keys';
import { listPage, parentCounter, type Page } from '../../db/pagination';
import { NotFound } from '../../errors';
import { invoiceFilters } from '../../schemas/invoice-filters';
import { buildFilter } from '../../schemas/list-query';
import { INVOICE, invoiceKey, toInvoice, type Invoice, type InvoiceItem } from './invoice';

/** The per-customer count of invoices, moved in each invoice's creating transaction. */
export const customerInvoiceCounter = (customerId: string) => parentCounter(INVOICE, 'customer_id', customerId);

/** True while the customer has no invoice yet (promotion codes `only_for_first_time_order`). */
export async function isFirstOrder(ctx: Ctx, customerId: string): Promise<boolean> {
  const counter = await getItem<{ total?: number }>(counterKey(ctx, customerInvoiceCounter(customerId)), true);
  return (counter?.total ?? 0) === 0;
}

export const invoiceNotFound = (id: string) => new NotFound('invoice', id);

/** Strongly consistent: a status move must see the latest state it conditions on. */
export async function findInvoiceItem(ctx: Ctx, id: string): Promise<InvoiceItem> {
  const item = await getItem<InvoiceItem>(invoiceKey(ctx, id), true);
  if (!item) throw invoiceNotFound(id);
  return item;
}

export const getInvoice = async (ctx: Ctx, id: string): Promise<Invoice> => toInvoice(await findInvoiceItem(ctx, id));

/** Oldest first (offsets stay stable while invoices are added), filtered on the list index's fields. */
export const listInvoices = (ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Invoice>> =>
  listPage(ctx, INVOICE, { ...query, filter: buildFilter(invoiceFilters, query) }, toInvoice);
