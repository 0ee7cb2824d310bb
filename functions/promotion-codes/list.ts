import { listPromotionCodes } from '../../shared/domain/promotion-codes/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/listPromotionCodes.js';

export const handler = httpHandler<unknown, { take: number; skip: number }>(route, ({ ctx, query }) => listPromotionCodes(ctx, query));
