import { deletePromotionCode } from '../../shared/domain/promotion-codes/update';
import { httpHandler } from '../../shared/http/handler';
import { route } from '../../shared/schemas/generated/deletePromotionCode.js';

export const handler = httpHandler(route, ({ ctx, path }) => deletePromotionCode(ctx, path.id!));
