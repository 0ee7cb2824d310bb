import type { EventDraft } from '../events/catalog';
import { changedPublicly } from '../events/changed';
import { toPromotionCode, type PromotionCodeItem } from './promotion-code';

/** Without the redemption counter: a redemption is not an edit of the code (no event, like Stripe). */
const edited = (item: PromotionCodeItem) => ({ ...toPromotionCode(item), current_redemptions: 0 });

/** Promotion code changes → `promotion_code.created`, `.deleted` (soft delete), `.updated` for any visible edit. */
export function promotionCodeEvents(before: PromotionCodeItem | undefined, after: PromotionCodeItem | undefined): EventDraft[] {
  if (!after) return [];
  const data = toPromotionCode(after);
  if (!before) return [{ type: 'promotion_code.created', data }];
  if (!before.deleted_at && after.deleted_at) return [{ type: 'promotion_code.deleted', data }];
  return changedPublicly(edited(before), edited(after)) ? [{ type: 'promotion_code.updated', data }] : [];
}
