import type { PromotionCodeUpdateInput } from '../../shared/domain/promotion-codes/input';
import { updatePromotionCode } from '../../shared/domain/promotion-codes/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/updatePromotionCode.js';

export const handler = httpHandler<PromotionCodeUpdateInput>(route, ({ ctx, path, body }) => updatePromotionCode(ctx, path.id!, body));
