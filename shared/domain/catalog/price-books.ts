import type { Ctx } from '../../context';
import { tableName } from '../../db/client';
import { entityKey, listIndexKeys } from '../../db/keys';
import { counterUpdate, listPage, type Page } from '../../db/pagination';
import { transactWrite } from '../../db/transactions';
import { RuleViolation } from '../../errors';
import { newId } from '../../ids';
import type { TransactItem } from '../../db/transactions';

export const PRICE_BOOK = 'PRIB';

interface PriceBookItem {
  pk: string;
  sk: string;
  _type: 'price_book';
  _version: number;
  id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

const priceBookKey = (ctx: Ctx, id: string) => entityKey(ctx, PRICE_BOOK, id);

const toPriceBook = (item: PriceBookItem) => ({
  id: item.id,
  name: item.name,
  description: item.description,
  // Hyperline's: the user roles that may use the book; this service has no user roles (every key sees every book).
  user_role_ids: [] as string[],
  created_at: item.created_at,
  updated_at: item.updated_at,
});

export type PriceBook = ReturnType<typeof toPriceBook>;

export async function createPriceBook(ctx: Ctx, input: { name: string; description?: string | null }): Promise<PriceBook> {
  const id = newId('prib');
  const now = ctx.clock.now().toISOString();
  const item: PriceBookItem = {
    ...priceBookKey(ctx, id),
    ...listIndexKeys(ctx, PRICE_BOOK, now, id),
    _type: 'price_book',
    _version: 0,
    id,
    name: input.name,
    description: input.description ?? null,
    created_at: now,
    updated_at: now,
  };
  await transactWrite([
    { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    counterUpdate(ctx, PRICE_BOOK, 1),
  ]);
  return toPriceBook(item);
}

export const listPriceBooks = (ctx: Ctx, query: { take: number; skip: number }): Promise<Page<PriceBook>> =>
  listPage(ctx, PRICE_BOOK, query, toPriceBook);

/** A price book named by a write must exist: checked in the write's own transaction. */
export const priceBookExists = (ctx: Ctx, id: string): { item: TransactItem; error: () => RuleViolation } => ({
  item: { ConditionCheck: { TableName: tableName(), Key: priceBookKey(ctx, id), ConditionExpression: 'attribute_exists(pk)' } },
  error: () => new RuleViolation('price_book_not_found', `No price book with id '${id}'.`),
});
