import { createPromotionCode } from '../../shared/domain/promotion-codes/create';
import type { PromotionCodeCreateInput } from '../../shared/domain/promotion-codes/input';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/createPromotionCode.js';

export const handler = httpHandler<PromotionCodeCreateInput>(route, ({ ctx, body }) => createPromotionCode(ctx, body, ctx.clientId ?? null));
