import type { Ctx } from '../../context';
import { getItem } from '../../db/items';
import { listPage, type Page } from '../../db/pagination';
import { buildFilter } from '../../schemas/list-query';
import { promotionCodeFilters } from '../../schemas/list-filters';
import { promotionCodeNotFound } from './errors';
import { normalizeCode, PROMOTION_CODE, promotionCodeItemKey, toPromotionCode, type PromotionCode, type PromotionCodeItem } from './promotion-code';

/** Strongly consistent: a promotion code is readable by the request right after the one that created it. */
export async function findPromotionCodeItem(ctx: Ctx, id: string): Promise<PromotionCodeItem> {
  const item = await getItem<PromotionCodeItem>(promotionCodeItemKey(ctx, id), true);
  if (!item) throw promotionCodeNotFound(id);
  return item;
}

/** A deleted promotion code still answers, with `deleted_at`. */
export const getPromotionCode = async (ctx: Ctx, id: string): Promise<PromotionCode> => toPromotionCode(await findPromotionCodeItem(ctx, id));

/**
 * The promotion codes that are not deleted, oldest first, filtered with the list query language. Codes ignore
 * case, so every `code` filter does: the list fields hold the lower-cased code and the filter values are
 * lower-cased too (so `code=summer20` finds `SUMMER20`, and `code__not=summer20` leaves it out).
 */
export function listPromotionCodes(ctx: Ctx, query: { take: number; skip: number } & Record<string, unknown>): Promise<Page<PromotionCode>> {
  const filters = Object.fromEntries(
    Object.entries(query).map(([param, value]) => [param, isCodeFilter(param) && typeof value === 'string' ? normalizeCode(value) : value]),
  );
  return listPage(ctx, PROMOTION_CODE, { ...query, filter: buildFilter(promotionCodeFilters, filters) }, toPromotionCode);
}

const isCodeFilter = (param: string): boolean => param === 'code' || param.startsWith('code__');
