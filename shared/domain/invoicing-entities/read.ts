import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { listPage, type Page } from '../../db/pagination';
import { entityNotFound } from './errors';
import { ENTITY, entityItemKey, toInvoicingEntity, type EntityItem, type InvoicingEntity } from './invoicing-entity';

export async function findEntityItem(ctx: Ctx, id: string, consistent = false): Promise<EntityItem> {
  const item = await getItem<EntityItem>(entityItemKey(ctx, id), consistent);
  if (!item) throw entityNotFound(id);
  return item;
}

export const getInvoicingEntity = async (ctx: Ctx, id: string): Promise<InvoicingEntity> =>
  toInvoicingEntity(await findEntityItem(ctx, id));

/** Lists the entities that are not deleted, oldest first. */
export const listInvoicingEntities = (ctx: Ctx, query: { take: number; skip: number }): Promise<Page<InvoicingEntity>> =>
  listPage(ctx, ENTITY, query, toInvoicingEntity);
