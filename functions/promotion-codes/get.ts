import { getPromotionCode } from '../../shared/domain/promotion-codes/read';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/getPromotionCode.js';

export const handler = httpHandler(route, ({ ctx, path }) => getPromotionCode(ctx, path.id!));
