import type { Ctx } from '../../context';
import { readCounter } from '../../db/counters';
import { getItem } from '../../db/items';
import { listPage, parentCounter, type Page } from '../../db/pagination';
import { NotFound } from '../../errors';
import { invoiceFilters } from '../../schemas/invoice-filters';
import { buildFilter } from '../../schemas/list-query';
import { INVOICE, invoiceKey, toInvoice, type Invoice, type InvoiceItem } from './invoice';

/** The per-customer count of invoices, moved in each invoice's creating transaction. */
export const customerInvoiceCounter = (customerId: string) => parentCounter(INVOICE, 'customer_id', customerId);

/** True while the customer has no invoice yet (promotion codes `only_for_first_time_order`). */
export const isFirstOrder = async (ctx: Ctx, customerId: string): Promise<boolean> => (await readCounter(ctx, customerInvoiceCounter(customerId), true)) === 0;

/**
 * isFirstOrder when a promotion code is applied, whose rules alone ask it; without one, false and no read (the
 * customer's invoice count is otherwise read by no invoice's creation).
 */
export const isFirstOrderForCode = async (ctx: Ctx, customerId: string, promotionCode: string | null | undefined): Promise<boolean> =>
  promotionCode ? isFirstOrder(ctx, customerId) : false;

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
