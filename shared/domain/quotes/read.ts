import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { listPage, type Page } from '../../db/pagination';
import { NotFound } from '../../errors';
import { buildFilter } from '../../schemas/list-query';
import { quoteFilters } from '../../schemas/list-filters';
import { QUOTE, quoteKey, toQuote, type Quote, type QuoteItem } from './quote';

/** Strongly consistent: a move must see the latest state it conditions on. */
export async function findQuoteItem(ctx: Ctx, id: string): Promise<QuoteItem> {
  const item = await getItem<QuoteItem>(quoteKey(ctx, id), true);
  if (!item) throw new NotFound('quote', id);
  return item;
}

export const getQuote = async (ctx: Ctx, id: string): Promise<Quote> => toQuote(await findQuoteItem(ctx, id));

/** Oldest first (offsets stay stable while quotes are added), filtered on the list index's fields. */
export const listQuotes = (ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<Quote>> =>
  listPage(ctx, QUOTE, { ...query, filter: buildFilter(quoteFilters, query) }, toQuote);
